package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.socket.NativeSocket;
import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The first sends of --gso are its probe: where the kernel takes UDP_SEGMENT but refuses to send
 * with it, the stream fails there, naming the probe, and no datagram counts as sent.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class UdpGsoProbeTest {
    /** {@code SO_NO_CHECK} ({@code <asm-generic/socket.h>}): sends without UDP checksums, which GSO refuses. */
    private static final int SO_NO_CHECK = 11;

    @Test
    void aPathThatRefusesSegmentsFailsTheFirstSendNamingTheProbe() throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1400)
                .io(new StreamIo(0, true, false, false)).bound(Bound.messages(1000)).build();
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (NativeSocket tx = NativeSocket.udp(AddressFamily.IPV4); NativeSocket rx = NativeSocket.udp(AddressFamily.IPV4)) {
            rx.bind(lo, 0);
            tx.bind(lo, 0);
            tx.connect(lo, rx.localPort(), 1000);
            // udp_send_skb (net/ipv4/udp.c) refuses a GSO send on a socket without checksums: EINVAL
            assertThat(Sockets.setInt(tx.fd(), Layout.SOL_SOCKET, SO_NO_CHECK, 1)).isZero();
            UdpSender sender = UdpSender.of(spec, tx);
            SenderContext ctx = new SenderContext(spec, Clock.system());
            assertThatThrownBy(() -> sender.run(ctx)).isInstanceOf(IOException.class)
                    .hasMessageStartingWith("--gso: the first sendmmsg(2) with UDP_SEGMENT (1400-byte segments), its probe, "
                            + "failed: sendmmsg(fd " + tx.fd() + ", 8 messages): EINVAL");
            assertThat(ctx.nextSequence()).as("datagrams counted sent").isZero();
            assertThat(sender.dataPathEnd().orElseThrow().calls()).isZero();
        }
    }
}
