package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.TcpIntervalsJson;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * A reverse TCP stream's result from the agent's {@code result} message: its per-interval figures
 * joined onto this host's intervals, or the result valid and saying why they are missing.
 */
class TcpJoinTest {
    private static final TransferSpec SPEC = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
            .payloadBytes(1000).duration(Duration.ofMillis(200)).warmup(Duration.ZERO).interval(Duration.ofMillis(100))
            .endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
    private static final AppliedOptions OPTIONS = new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false, Optional.empty());

    private static EndCounters ends(boolean sender, List<IntervalSample> intervals) {
        return new EndCounters(sender, 300_000, sender ? 300 : 0, 0, 200_000_000L, 250_000, sender ? 250 : 0, 0, 0, 0,
                OptionalDouble.empty(), 5_000_000, intervals, false);
    }

    private static List<IntervalSample> here() {
        return List.of(new IntervalSample(0, 100_000_000, 120_000, 0, 0, false),
                new IntervalSample(100_000_000, 200_000_000, 130_000, 0, 0, false));
    }

    /** The agent's end as it writes it, with {@code tcpIntervals} as its {@code tcp_intervals}, or none for null. */
    private static JsonNode agentEnd(String tcpIntervals) throws IOException {
        ObjectNode end = EndJson.write(ends(true, List.of()), OPTIONS);
        if (tcpIntervals != null) {
            end.set(TcpIntervalsJson.FIELD, Control.MAPPER.readTree(tcpIntervals));
        }
        return Control.MAPPER.readTree(end.toString());
    }

    private static RemoteStreamResult join(JsonNode result, JsonNode end) throws IOException {
        return TcpJoin.stream(SPEC, ends(false, here()), OPTIONS, Optional.empty(), Optional.empty(), -1, result, end,
                "same host");
    }

    @Test
    void theAgentsFiguresLandOnThisHostsIntervalsInOrder() throws IOException {
        JsonNode end = agentEnd("[{\"start_ns\":5,\"end_ns\":100000005,\"retransmits\":2,\"cwnd_bytes\":14480,"
                + "\"tcpi_rtt\":50,\"tcpi_rttvar\":6,\"tcpi_pacing_rate\":-1,\"tcpi_delivery_rate\":1000},"
                + "{\"start_ns\":100000005,\"end_ns\":200000005,\"retransmits\":0,\"cwnd_bytes\":28960,"
                + "\"tcpi_rtt\":60,\"tcpi_rttvar\":7,\"tcpi_pacing_rate\":-1,\"tcpi_delivery_rate\":2000}]");

        RemoteStreamResult r = join(Control.message("result"), end);

        assertThat(r.transfer().invalidReasons()).isEmpty();
        assertThat(r.transfer().intervals()).extracting(s -> s.tcp().orElseThrow()).containsExactly(
                new TcpIntervalSample(2, 14_480, 50, 6, -1, 1000), new TcpIntervalSample(0, 28_960, 60, 7, -1, 2000));
        // this host's counts stay its own
        assertThat(r.transfer().intervals()).extracting(IntervalSample::bytes).containsExactly(120_000L, 130_000L);
        assertThat(r.farSenderIntervals()).contains(new FarSenderIntervals(2, 2, ""));
        // an end without tcp_info says why the run has none
        assertThat(r.transfer().tcpUnavailable()).startsWith("the agent sent no TCP_INFO of its sending socket");
    }

    @Test
    void malformedFiguresLeaveTheResultValidAndNameTheField() throws IOException {
        JsonNode end = agentEnd("[{\"start_ns\":0,\"end_ns\":100,\"retransmits\":\"many\",\"cwnd_bytes\":1,"
                + "\"tcpi_rtt\":1,\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,\"tcpi_delivery_rate\":1}]");

        RemoteStreamResult r = join(Control.message("result"), end);

        assertThat(r.transfer().invalidReasons()).isEmpty();
        assertThat(r.transfer().intervals()).allSatisfy(s -> assertThat(s.tcp()).isEmpty());
        assertThat(r.farSenderIntervals().orElseThrow().unavailable()).isEqualTo("the agent's per-interval TCP_INFO is "
                + "malformed and left out: the peer's tcp_intervals[0].retransmits is \"many\"; allowed: an integer >= 0");
    }

    @Test
    void anAgentThatReadNothingAndOneThatLeftThemOutSayWhy() throws IOException {
        RemoteStreamResult unread = join(Control.message("result"),
                agentEnd("[{\"start_ns\":0,\"end_ns\":100},{\"start_ns\":100,\"end_ns\":200}]"));
        assertThat(unread.farSenderIntervals().orElseThrow().unavailable()).isEqualTo("the agent's sending end read no "
                + "TCP_INFO at any of its 2 intervals: its transport cannot read it (nio without linerate-native on its "
                + "class path)");

        ObjectNode result = Control.message("result").put(TcpIntervalsJson.LEFT_OUT, "too big");
        RemoteStreamResult leftOut = join(result, agentEnd(null));
        assertThat(leftOut.farSenderIntervals().orElseThrow().unavailable())
                .isEqualTo("the agent left its per-interval TCP_INFO out: too big");
        assertThat(leftOut.transfer().invalidReasons()).isEmpty();
    }
}
