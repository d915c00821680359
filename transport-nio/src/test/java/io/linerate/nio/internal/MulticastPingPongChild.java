package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import java.time.Duration;
import java.util.List;

/**
 * Runs one UDP multicast ping-pong with both ends in this JVM and prints the echo server's count of
 * answers on the first line of standard output and the result's detail JSON on the second.
 * {@link MulticastPingPongNetnsTest} starts it in a JVM of its own inside the namespace it makes.
 *
 * <p>Arguments: the group, the interface ({@code IF} or {@code CLIENT_IF;SERVER_IF}) and
 * IP_MULTICAST_LOOP ({@code true} or {@code false}). Each size makes exactly
 * {@value #WARMUP_ITERATIONS} warm-up and {@value #ITERATIONS} measured round trips (the time
 * floor is 0 and the time cap 60 s, far beyond what they take).
 */
public final class MulticastPingPongChild {
    static final int WARMUP_ITERATIONS = 20;
    static final int ITERATIONS = 200;
    static final List<Integer> SIZES = List.of(1, 64, 1472);

    private MulticastPingPongChild() {
    }

    /**
     * @param args the group, the interface and the loop flag
     * @throws Exception when the ping-pong fails; the JVM then exits non-zero with the stack trace
     */
    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            throw new IllegalArgumentException("arguments: GROUP IF[;IF] true|false; got " + args.length + " arguments");
        }
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(SIZES)
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(60), ITERATIONS, ITERATIONS,
                        Duration.ZERO, WARMUP_ITERATIONS))
                .timeout(Duration.ofSeconds(10))
                .multicast(PingPongMulticast.parse(args[0], args[1], Boolean.parseBoolean(args[2]), AddressFamily.IPV4))
                .build();
        long[] answered = new long[1];
        RunFacts facts = RunFacts.detect("test", spec.toString());
        PingPongResult r = PingPongRunner.run(spec, Clock.system(), facts, -1, n -> answered[0] = n, null);
        System.out.println(answered[0]);
        System.out.println(r.detailJson().toJson());
    }
}
