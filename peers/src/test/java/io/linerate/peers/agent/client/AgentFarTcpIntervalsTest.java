package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.JsonObject;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.agent.internal.wire.Control;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Where the agent sends a TCP stream over 127.0.0.1, its sending socket's {@code TCP_INFO} at each
 * interval (read through sock_diag: linerate-native is on this module's test class path) comes back
 * with its counts and is joined onto this host's intervals.
 */
@Timeout(60)
class AgentFarTcpIntervalsTest {
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    /** The far sender's figures are on this host's intervals, and consistent with its end-of-run tcp_info. */
    private static void farFigures(RemoteStreamResult r) throws Exception {
        assertThat(r.local().sender()).isFalse();
        assertThat(r.transfer().invalidReasons()).isEmpty();
        TcpStats end = r.transfer().tcp().orElseThrow();
        List<IntervalSample> intervals = r.transfer().intervals();
        List<IntervalSample> joined = intervals.stream().filter(s -> s.tcp().isPresent()).toList();
        FarSenderIntervals far = r.farSenderIntervals().orElseThrow();
        assertThat(far.unavailable()).isEmpty();
        assertThat(far.joined()).isEqualTo(joined.size()).isPositive();
        // the ends' interval counts may differ by one at each phase's end; never more on the same grid
        assertThat(joined.size()).isGreaterThanOrEqualTo(intervals.size() - 2);
        // the intervals' retransmits are the change of tcpi_total_retrans between readings of one socket:
        // they add up to at most its total at the end of the run
        assertThat(joined.stream().mapToLong(s -> s.tcp().orElseThrow().retransmits()).sum())
                .isBetween(0L, end.totalRetransmits());
        assertThat(joined).allSatisfy(s -> assertThat(s.tcp().orElseThrow().cwndBytes()).isPositive());
        // the JSON's intervals carry them, and the detail says whose they are
        JsonObject detail = r.detailJson();
        var json = Control.MAPPER.readTree(detail.toJson());
        assertThat(json.get("tcp_intervals").get("host").asText()).isEqualTo("remote");
        assertThat(json.get("tcp_intervals").get("joined").asInt()).isEqualTo(joined.size());
        long withFigures = 0;
        for (var i : json.get("intervals")) {
            if (i.has("retransmits")) {
                withFigures++;
                assertThat(i.get("cwnd_bytes").asLong()).isPositive();
            }
        }
        assertThat(withFigures).isEqualTo(joined.size());
    }

    @Test
    void aReverseStreamsIntervalsCarryTheAgentsSendingSocketsFigures() throws Exception {
        RemoteStreamResult r = AgentStreamTest.run(AgentStreamTest.spec(agent, Protocol.TCP).build(), true);

        farFigures(r);
    }

    @Test
    void theReverseHalfOfBothDirectionsCarriesThemAndTheForwardHalfItsOwn() throws Exception {
        TransferSpec spec = AgentStreamTest.spec(agent, Protocol.TCP).build();
        RemoteBidirResult r = RemoteBidir.run(spec, io.linerate.core.Clock.system(), Optional.of(AgentStreamTest.SECRET),
                IntervalListener.NONE, IntervalListener.NONE);

        farFigures(r.reverse());
        // this host sends forward: its own probe's figures on its intervals, nothing of the agent's to join
        assertThat(r.forward().farSenderIntervals()).isEmpty();
        assertThat(r.forward().transfer().intervals()).anySatisfy(s -> assertThat(s.tcp()).isPresent());
    }
}
