package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.IntervalSample;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TransferSpec;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TcpIntervalsJsonTest {
    private static final TcpIntervalSample WARM = new TcpIntervalSample(0, 14480, 41, 7, -1, 1_000_000_000L);
    private static final TcpIntervalSample FIRST = new TcpIntervalSample(3, 14480 * 10, 52, 9, 2_500_000_000L, -1);

    /** A warm-up interval with figures, a window interval without (its read failed), one with. */
    private static List<IntervalSample> intervals() {
        return List.of(new IntervalSample(0, 100_000_000, 1000, 0, 0, true).withTcp(WARM),
                new IntervalSample(100_000_000, 200_000_123, 2000, 0, 0, false),
                new IntervalSample(200_000_123, 300_000_456, 3000, 0, 0, false).withTcp(FIRST));
    }

    private static JsonNode end(String tcpIntervals) throws IOException {
        return Control.MAPPER.readTree("{\"tcp_intervals\":" + tcpIntervals + "}");
    }

    @Test
    void everyFigureCrossesTheWireUnchanged() throws IOException {
        ObjectNode end = Control.MAPPER.createObjectNode();
        end.set(TcpIntervalsJson.FIELD, TcpIntervalsJson.array(intervals(), 10));

        List<TcpIntervalsJson.Entry> read = TcpIntervalsJson.read(Control.MAPPER.readTree(end.toString()), 10).orElseThrow();

        assertThat(read).containsExactly(
                new TcpIntervalsJson.Entry(0, 100_000_000, true, Optional.of(WARM)),
                new TcpIntervalsJson.Entry(100_000_000, 200_000_123, false, Optional.empty()),
                new TcpIntervalsJson.Entry(200_000_123, 300_000_456, false, Optional.of(FIRST)));
        // the names are the result JSON's interval names; a window interval has no omitted field
        JsonNode last = end.get("tcp_intervals").get(2);
        assertThat(last.get("retransmits").asLong()).isEqualTo(3);
        assertThat(last.get("cwnd_bytes").asLong()).isEqualTo(144_800);
        assertThat(last.get("tcpi_rtt").asLong()).isEqualTo(52);
        assertThat(last.get("tcpi_rttvar").asLong()).isEqualTo(9);
        assertThat(last.get("tcpi_pacing_rate").asLong()).isEqualTo(2_500_000_000L);
        assertThat(last.get("tcpi_delivery_rate").asLong()).isEqualTo(-1);
        assertThat(last.has("omitted")).isFalse();
    }

    @Test
    void anEndOfAnEarlierReleaseSendsNone() throws IOException {
        assertThat(TcpIntervalsJson.read(Control.MAPPER.readTree("{\"sender\":true,\"bytes\":100}"), 10)).isEmpty();
    }

    @Test
    void aWriterWritesAtMostTheBound() {
        assertThat(TcpIntervalsJson.array(intervals(), 2)).hasSize(2);
    }

    @Test
    void theBoundIsTheRunsIntervalsOnTheGridPlusTwo() {
        TransferSpec spec = TransferSpec.builder().duration(Duration.ofMillis(1050)).warmup(Duration.ofMillis(200))
                .interval(Duration.ofMillis(100)).build();
        // warm-up 2 intervals, duration ceil(10.5) = 11, and 2
        assertThat(TcpIntervalsJson.bound(spec)).isEqualTo(2 + 11 + 2);
    }

    @Test
    void negativeFiguresAreRefusedNamingTheFieldAndTheInterval() {
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5,\"retransmits\":-1,"
                + "\"cwnd_bytes\":1,\"tcpi_rtt\":1,\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,\"tcpi_delivery_rate\":1}]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[0].retransmits is -1; allowed: an integer >= 0");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5},{\"start_ns\":5,\"end_ns\":9,"
                + "\"retransmits\":0,\"cwnd_bytes\":-2,\"tcpi_rtt\":1,\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,"
                + "\"tcpi_delivery_rate\":1}]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[1].cwnd_bytes is -2; allowed: an integer >= -1");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":-3,\"end_ns\":5}]"), 10))
                .isInstanceOf(IOException.class).hasMessageContaining("tcp_intervals[0].start_ns is -3");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":9,\"end_ns\":5}]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[0].end_ns is 5; allowed: an integer >= 9");
    }

    @Test
    void nonNumericFiguresAreRefusedNamingTheField() {
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5,\"retransmits\":0,"
                + "\"cwnd_bytes\":1,\"tcpi_rtt\":\"52\",\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,\"tcpi_delivery_rate\":1}]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[0].tcpi_rtt is \"52\"; allowed: an integer >= -1");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5,\"retransmits\":0.5,"
                + "\"cwnd_bytes\":1,\"tcpi_rtt\":1,\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,\"tcpi_delivery_rate\":1}]"), 10))
                .isInstanceOf(IOException.class).hasMessageContaining("tcp_intervals[0].retransmits is 0.5");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5,\"retransmits\":0}]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[0].cwnd_bytes is missing; allowed: an integer >= -1");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":5,\"omitted\":\"yes\"}]"), 10))
                .isInstanceOf(IOException.class).hasMessageContaining("tcp_intervals[0].omitted is \"yes\"");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("{\"start_ns\":0}"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals is not an array");
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[7]"), 10))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals[0] is not an object");
    }

    @Test
    void moreIntervalsThanTheRunHoldsAreRefused() {
        assertThatThrownBy(() -> TcpIntervalsJson.read(end("[{\"start_ns\":0,\"end_ns\":1},{\"start_ns\":1,\"end_ns\":2},"
                + "{\"start_ns\":2,\"end_ns\":3}]"), 2))
                .isInstanceOf(IOException.class).hasMessage("the peer's tcp_intervals holds 3 intervals; allowed: at most 2, the run's intervals");
    }

    @Test
    void arraysThatWouldPassTheMessageLimitAreLeftOutAndTheResultSaysWhy() throws IOException {
        List<IntervalSample> many = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            many.add(new IntervalSample(i * 1_000_000_000L, (i + 1) * 1_000_000_000L, 1, 0, 0, false).withTcp(FIRST));
        }
        ObjectNode result = Control.message("result");
        ArrayNode ends = result.putArray("ends");
        ObjectNode first = ends.addObject().put("sender", true);
        ObjectNode second = ends.addObject().put("sender", true);
        result.set("end", first);
        ArrayNode array = TcpIntervalsJson.array(many, 200);
        int one = Control.MAPPER.writeValueAsBytes(array).length;
        // room for the first end's array, counted twice (ends[0] and end), and not for the second's
        int limit = Control.MAPPER.writeValueAsBytes(result).length + 2 * one + one / 2 + 200;

        int leftOut = TcpIntervalsJson.fit(result, List.of(first, second), List.of(array, array.deepCopy()), limit);

        assertThat(leftOut).isOne();
        assertThat(first.get(TcpIntervalsJson.FIELD)).hasSize(100);
        assertThat(second.has(TcpIntervalsJson.FIELD)).isFalse();
        assertThat(result.get(TcpIntervalsJson.LEFT_OUT).asText())
                .isEqualTo("the agent's result message would pass the control connection's limit of " + limit + " bytes");
        assertThat(Control.MAPPER.writeValueAsBytes(result).length).isLessThanOrEqualTo(limit);
    }
}
