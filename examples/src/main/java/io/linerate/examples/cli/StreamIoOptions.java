package io.linerate.examples.cli;

import io.linerate.core.StreamIo;
import picocli.CommandLine.Option;

/** How a stream's ends call the kernel ({@link StreamIo}); a picocli mixin of {@code stream}. */
final class StreamIoOptions {
    @Option(names = "--batch", defaultValue = "0", paramLabel = "N",
            description = "UDP: datagrams per sendmmsg(2)/recvmmsg(2) call on the native transport, 1.." + StreamIo.MAX_BATCH
                    + "; 1 = one send(2)/recv(2) per datagram; 0 = the transport's choice (default).")
    int batch;

    @Option(names = {"--gso", "--gsro"}, description = "UDP: send with UDP_SEGMENT and receive with UDP_GRO (generic segmentation "
            + "and receive offload), as iperf3's --gsro; every segment keeps its own header. Native transport.")
    boolean gso;

    @Option(names = {"-Z", "--zerocopy"}, description = "TCP: send with sendfile(2) from a file of the payload, as "
            + "iperf3's -Z: no copy by linerate itself. Native transport.")
    boolean zeroCopy;

    @Option(names = "--skip-rx-copy", description = "TCP: receive with MSG_TRUNC, as iperf3's --skip-rx-copy: the kernel "
            + "drops the bytes instead of copying them, so they are not checked. Native transport.")
    boolean skipReceiveCopy;

    /** @return the options as a spec field; {@link StreamIo#DEFAULT} when none was given */
    StreamIo io() {
        return new StreamIo(batch, gso, zeroCopy, skipReceiveCopy);
    }
}
