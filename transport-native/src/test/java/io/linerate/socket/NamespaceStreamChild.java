package io.linerate.socket;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.TransferFormat;
import java.time.Duration;
import java.util.Locale;

/**
 * Runs one native TCP stream and prints its result: the text summary line
 * ({@link TransferFormat#summaryLine}) on the first line of standard output, the detail JSON
 * ({@link TransferResult#detailJson()}) on the second. The namespace tests start it in a JVM of its
 * own inside the network namespace they make, as {@code loopback --netns} runs its suite.
 *
 * <p>Arguments: the address family ({@code ipv4} or {@code ipv6}) and the duration in ms; the
 * warm-up is 0, so that the stream's whole life is the measured window.
 */
public final class NamespaceStreamChild {
    private NamespaceStreamChild() {
    }

    /**
     * @param args the family and the duration in ms
     * @throws Exception when the stream fails; the JVM then exits non-zero with the stack trace
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            throw new IllegalArgumentException("arguments: ipv4|ipv6 DURATION_MS; got " + args.length + " arguments");
        }
        AddressFamily family = AddressFamily.valueOf(args[0].toUpperCase(Locale.ROOT));
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(family).warmup(Duration.ZERO)
                .duration(Duration.ofMillis(Long.parseLong(args[1]))).interval(Duration.ofMillis(500)).build();
        try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
            TransferResult r = t.run();
            System.out.println(TransferFormat.summaryLine(r));
            System.out.println(r.detailJson().toJson());
        }
    }
}
