package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.TcpStats;
import io.linerate.core.sink.JsonObject;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LatencyTcpInfoTest {
    private static final TcpStats STATS = new TcpStats(2, 5, 14480, 31, 12, -1, 123456, 1448, 1448);

    @Test
    void anEndReadAndAnEndUnavailableGoUnderTheStreamsFieldNames() {
        LatencyTcpInfo info = new LatencyTcpInfo(LatencyTcpInfo.End.read("TCP_INFO of the client's socket", STATS),
                LatencyTcpInfo.End.unavailable("TCP_INFO of the echo server's socket", "no TCP_INFO source"));

        String json = info.putJson(JsonObject.create()).toString();

        assertThat(json).isEqualTo("{\"tcp_info\":{\"client\":{\"source\":\"TCP_INFO of the client's socket\","
                + "\"retransmits_window\":2,\"tcpi_total_retrans\":5,\"cwnd_bytes\":14480,\"tcpi_rtt\":31,"
                + "\"tcpi_rttvar\":12,\"tcpi_pacing_rate\":-1,\"tcpi_delivery_rate\":123456,\"tcpi_snd_mss\":1448,"
                + "\"tcpi_rcv_mss\":1448}},\"tcp_info_unavailable\":{\"server\":\"no TCP_INFO source\"}}");
    }

    @Test
    void bothEndsReadLeaveNoUnavailableObject() {
        LatencyTcpInfo info = new LatencyTcpInfo(LatencyTcpInfo.End.read("a", STATS), LatencyTcpInfo.End.read("b", STATS));

        assertThat(info.putJson(JsonObject.create()).toString()).contains("\"client\":{", "\"server\":{")
                .doesNotContain("tcp_info_unavailable");
    }

    @Test
    void anEndHasFiguresOrAReasonNeverBothNorNeither() {
        assertThatThrownBy(() -> new LatencyTcpInfo.End("a", Optional.of(STATS), "why"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exactly one");
        assertThatThrownBy(() -> new LatencyTcpInfo.End("a", Optional.empty(), ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("neither");
        assertThat(LatencyTcpInfo.End.unavailable("a", null).unavailable()).isEqualTo("unknown");
    }
}
