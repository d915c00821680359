package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.peers.agent.internal.wire.HostClock;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The result says how the two ends' clocks compare, and reports no one-way delay either way. */
@Timeout(60)
class HostClockTest {

    @Test
    void clocksAreTheSameOnlyWhenBothIdentitiesAreKnownAndEqual() {
        Optional<String> a = Optional.of("57de1796-1e20-4ad5-83c3-2007e902e0c0 monotonic 0 0");
        Optional<String> b = Optional.of("0b3a4c2e-0000-4ad5-83c3-2007e902e0c0 monotonic 0 0");
        Optional<String> offset = Optional.of("57de1796-1e20-4ad5-83c3-2007e902e0c0 monotonic 5 0");

        assertThat(HostClock.compare(a, a)).isEqualTo("same host");
        assertThat(HostClock.compare(a, b)).isEqualTo("unsynchronised");
        // a time namespace that shifts the monotonic clock makes readings incomparable
        assertThat(HostClock.compare(a, offset)).isEqualTo("unsynchronised");
        assertThat(HostClock.compare(a, Optional.empty())).isEqualTo("unsynchronised");
        assertThat(HostClock.compare(Optional.empty(), Optional.empty())).isEqualTo("unsynchronised");
    }

    @Test
    void anAgentOnLoopbackReadsThisHostsClockAndNoOneWayDelayIsReported() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0,
                Optional.of(AgentStreamTest.SECRET), AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            RemoteStreamResult r = AgentStreamTest.run(AgentStreamTest.spec(agent, Protocol.UDP)
                    .duration(Duration.ofMillis(100)).warmup(Duration.ZERO).rateBitsPerSecond(10_000_000).build(), true);

            assertThat(r.clock()).isEqualTo("same host");
            assertThat(r.detailJson().toString()).contains("\"clock\":\"same host\"")
                    .contains("\"one_way_delay\":\"not reported");
            assertThat(r.transfer().udp().orElseThrow().oneWayDelay().count()).isZero();
            assertThat(r.metrics()).extracting(Metric::name).noneMatch(n -> n.contains("delay") || n.contains("owd"));
        }
    }
}
