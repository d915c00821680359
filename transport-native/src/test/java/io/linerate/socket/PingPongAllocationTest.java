package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.socket.internal.NativePingPong;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The native ping-pong's round trips allocate nothing once compiled, on the client and on the
 * echo server: the sweep reads each thread's allocated-bytes counter at both ends of the measured
 * part, after a warm-up long enough for the JIT. The same size runs three times: a per-round-trip
 * allocation (an object is 16 bytes or more) would reach 16 bytes per round trip in every run, so
 * every run must stay below that, and at least one must allocate exactly nothing (a one-off JVM
 * event, such as a recompilation, may show in another).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class PingPongAllocationTest {

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP", "UNIX_DATAGRAM"})
    void roundTripsAllocateNothingAfterWarmup(PingPongProtocol p) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(64, 64, 64))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(20), 2_000, 2_000,
                        Duration.ofMillis(300), 10_000))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = NativePingPong.run(spec, Clock.system(), NativePingPongTest.FACTS, -1, n -> { });
        assertThat(r.sizes()).hasSize(3).allSatisfy(c -> {
            assertThat(c.measured()).isBetween(1L, 2_000L);
            assertThat(c.clientAllocatedBytes()).as("client bytes in %d round trips", c.measured())
                    .isBetween(0L, 16 * c.measured() - 1);
            assertThat(c.serverAllocatedBytes()).as("server bytes in %d round trips", c.measured())
                    .isBetween(0L, 16 * c.measured() - 1);
        });
        assertThat(r.sizes()).as("runs with no allocation on either end: %s", r.sizes())
                .filteredOn(c -> c.clientAllocatedBytes() == 0 && c.serverAllocatedBytes() == 0).isNotEmpty();
    }
}
