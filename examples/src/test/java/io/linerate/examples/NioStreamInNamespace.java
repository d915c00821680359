package io.linerate.examples;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.time.Duration;

/**
 * Runs one TCP stream on the {@code nio} transport, with the native module on the class path, and
 * prints its detail JSON ({@link TransferResult#detailJson()}) on one line of standard output.
 * {@link NioRetransmitsNetnsTest} starts it in a JVM of its own inside the network namespace it
 * makes. The warm-up is 0, so that the stream's whole life is the measured window.
 *
 * <p>Argument: the duration in ms.
 */
public final class NioStreamInNamespace {
    private NioStreamInNamespace() {
    }

    /**
     * @param args the duration in ms
     * @throws Exception when the stream fails; the JVM then exits non-zero with the stack trace
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 1) {
            throw new IllegalArgumentException("argument: DURATION_MS; got " + args.length + " arguments");
        }
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4).warmup(Duration.ZERO)
                .duration(Duration.ofMillis(Long.parseLong(args[0]))).interval(Duration.ofMillis(500)).build();
        try (Transfer t = Transports.byName("nio").open(spec, Clock.system())) {
            System.out.println(t.run().detailJson().toJson());
        }
    }
}
