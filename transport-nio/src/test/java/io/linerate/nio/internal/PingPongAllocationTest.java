package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.latency.PingPong;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Steady state allocates nothing per round trip, on the client and on the echo server, in every
 * waiting mode: the run reads each thread's allocated-bytes counter at both ends of the measured
 * part, after a warm-up long enough for the JIT. Every muxer runs, the polling ones ({@code spin},
 * {@code backoff}) with their own idle strategies, and UDP also with each other Agrona idle
 * strategy. The same size runs three times: a per-round-trip allocation (an object is 16 bytes
 * or more) would reach 16 bytes per round trip in every run, so every run must stay below that,
 * and at least one run must allocate exactly nothing; a one-off JVM event (such as a deoptimisation
 * rematerialising a few objects, a few KiB) may show in another run.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PingPongAllocationTest {
    static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");

    static Stream<Arguments> cases() {
        Stream<Arguments> muxers = Stream.of(PingPongProtocol.TCP, PingPongProtocol.UDP, PingPongProtocol.UNIX_STREAM,
                        PingPongProtocol.PIPE)
                .flatMap(p -> Stream.of(Muxer.values()).map(m -> Arguments.of(p, m, null)));
        Stream<Arguments> idles = Stream.of(Idle.YIELD, Idle.SLEEP, Idle.BACKOFF)
                .map(i -> Arguments.of(PingPongProtocol.UDP, Muxer.SPIN, i));
        return Stream.concat(muxers, idles);
    }

    @ParameterizedTest(name = "{0} {1} idle {2}")
    @MethodSource("cases")
    void roundTripsAllocateNothingAfterWarmup(PingPongProtocol p, Muxer m, Idle idle) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(64, 64, 64)).clientMuxer(m).serverMuxer(m)
                .idle(idle)
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(20), 2_000, 2_000,
                        Duration.ofMillis(300), 10_000))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = PingPong.run(spec, Clock.system(), FACTS);
        assertThat(r.sizes()).hasSize(3).allSatisfy(c -> {
            // 2000 round trips, unless a host loaded by other work hit the 20 s cap first: the
            // allocation bound below holds for whatever count was measured
            assertThat(c.measured()).isBetween(1L, 2_000L);
            // less than one object (16 bytes) per round trip in every run
            assertThat(c.clientAllocatedBytes()).as("client bytes in %d round trips", c.measured())
                    .isBetween(0L, 16 * c.measured() - 1);
            assertThat(c.serverAllocatedBytes()).as("server bytes in %d round trips", c.measured())
                    .isBetween(0L, 16 * c.measured() - 1);
        });
        assertThat(r.sizes()).as("runs with no allocation on either end: %s", r.sizes())
                .filteredOn(c -> c.clientAllocatedBytes() == 0 && c.serverAllocatedBytes() == 0).isNotEmpty();
    }
}
