package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class EndJsonTcpTest {

    @Test
    void aSendersFiguresCrossTheWireUnchanged() throws IOException {
        TcpStats t = new TcpStats(3, 17, 14480 * 10, 52, 9, -1, 1_250_000_000L, 1448, -1);
        ObjectNode end = Control.MAPPER.createObjectNode();
        EndJson.tcp(end, t);
        assertThat(end.get("tcp_info").get("cwnd_bytes").asLong()).isEqualTo(144_800);
        assertThat(EndJson.tcp(Control.MAPPER.readTree(end.toString()))).contains(t);
    }

    @Test
    void anEndOfAnEarlierReleaseSendsNone() throws IOException {
        // an agent of the release before tcp_info: its end object has the counters and options only
        String before = "{\"sender\":true,\"bytes\":100,\"messages\":1,\"window_start_ns\":0,\"window_end_ns\":1,"
                + "\"window_bytes\":100,\"window_messages\":1,\"reordered\":0,\"duplicates\":0,\"foreign\":0,\"cpu_ns\":0,"
                + "\"tclass_applied\":0,\"sndbuf_applied\":0,\"rcvbuf_applied\":0,\"nodelay_applied\":false}";
        assertThat(EndJson.tcp(Control.MAPPER.readTree(before))).isEmpty();
        assertThat(EndJson.counters(Control.MAPPER.readTree(before)).bytes()).isEqualTo(100);
    }

    @Test
    void aLatencyEndsFiguresOrItsReasonCrossTheWireAndAnOlderAgentsResultSaysItSentNone() throws IOException {
        TcpStats t = new TcpStats(0, 1, 14480, 30, 10, -1, -1, 1448, 1448);
        ObjectNode read = Control.message("result");
        EndJson.latencyTcp(read, LatencyTcpInfo.End.read("", t));
        ObjectNode why = Control.message("result");
        EndJson.latencyTcp(why, LatencyTcpInfo.End.unavailable("", "no TCP_INFO source on the class path"));

        assertThat(EndJson.latencyTcp(Control.MAPPER.readTree(read.toString()), "agent").stats()).contains(t);
        assertThat(EndJson.latencyTcp(Control.MAPPER.readTree(why.toString()), "agent").unavailable())
                .isEqualTo("the agent: no TCP_INFO source on the class path");
        LatencyTcpInfo.End old = EndJson.latencyTcp(Control.MAPPER.readTree("{\"type\":\"result\",\"echoes\":3,"
                + "\"bytes\":96}"), "agent");
        assertThat(old.unavailable()).isEqualTo("the agent sent no tcp_info (an agent of an earlier release)");
        assertThat(old.source()).isEqualTo("agent");
    }

    @Test
    void figuresOutOfRangeAreRefusedNamingThem() {
        assertThatThrownBy(() -> EndJson.tcp(Control.MAPPER.readTree("{\"tcp_info\":{\"retransmits_window\":5,"
                + "\"tcpi_total_retrans\":2,\"cwnd_bytes\":1,\"tcpi_rtt\":1,\"tcpi_rttvar\":1,\"tcpi_pacing_rate\":1,"
                + "\"tcpi_delivery_rate\":1,\"tcpi_snd_mss\":1,\"tcpi_rcv_mss\":1}}")))
                .isInstanceOf(IOException.class).hasMessageContaining("retransmits 5 in the window and 2 in total");
        assertThatThrownBy(() -> EndJson.tcp(Control.MAPPER.readTree("{\"tcp_info\":{\"retransmits_window\":0}}")))
                .isInstanceOf(IOException.class).hasMessageContaining("tcpi_total_retrans");
    }
}
