package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.RawEndCounts;
import io.linerate.peers.agent.internal.wire.Control;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * One end of a raw run reported two ways: this host's end from its transport's typed counts, and
 * the agent's end from its {@code result} message, the JSON that crosses the wire. The same counts
 * give the same report either way.
 */
class RawEndReportTest {

    @Test
    void typedCountsAndTheAgentsResultMessageGiveTheSameReport() throws Exception {
        RawEndCounts counts = new RawEndCounts(false, "eth1", List.of(
                new RawEndCounts.StreamCounts(0x88b5, 990, 99_000, 1190, 7),
                new RawEndCounts.StreamCounts(0x88b6, 500, 50_000, 600, 0)), 5_678_000, OptionalLong.of(1797));
        // the agent's message as AgentRaw writes it: the raw result's detail (RawResultJson's names) beside its metrics
        JsonNode message = Control.MAPPER.readTree("""
                {"type":"result","valid":false,"invalid_reasons":["stream 0x88b5: 10 frames lost"],
                 "metrics":[{"name":"raw_mbps","value":1.5,"unit":"Mbit/s","time":2.0,"labels":{"ethertype":"0x88b5"},
                             "better":"HIGHER","advisory":false}],
                 "detail":{"tx":null,"rx":"eth1","frame_size":100,
                           "streams":[{"ethertype":"0x88b5","tx_frames":null,"rx_frames":990,"rx_bytes":99000,
                                       "rx_frames_total":1190,"kernel_drops":7},
                                      {"ethertype":"0x88b6","tx_frames":null,"rx_frames":500,"rx_bytes":50000,
                                       "rx_frames_total":600,"kernel_drops":0}],
                           "cpu_ns":{"sender":null,"receiver":5678000},
                           "rx_nic":{"interface":"eth1","rx_packets":1797}}}
                """);
        RawEndReport wire = RawEndReport.ofAgent(message);
        Metric remote = new Metric("raw_mbps", 1.5, "Mbit/s", RemoteRawResult.REMOTE, 2.0, Map.of("ethertype", "0x88b5"),
                Better.HIGHER);
        RawEndReport typed = RawEndReport.of(counts, List.of("stream 0x88b5: 10 frames lost"), List.of(remote));
        assertThat(typed).isEqualTo(wire);
        assertThat(typed.sender()).isFalse();
        assertThat(typed.stream(0x88b5).orElseThrow().ringDrops()).isEqualTo(7);
        assertThat(typed.nicPackets()).hasValue(1797);
    }

    @Test
    void aSendersCountsKeepItsRoleAndAnUnreadInterfaceCounterStaysUnknown() {
        RawEndCounts counts = new RawEndCounts(true, "eth0", List.of(new RawEndCounts.StreamCounts(0x88b5, 1000, 100_000,
                1200, 0)), 1_234_000, OptionalLong.empty());
        RawEndReport r = RawEndReport.of(counts, List.of(), List.of());
        assertThat(r.sender()).isTrue();
        assertThat(r.interfaceName()).isEqualTo("eth0");
        assertThat(r.streams()).containsExactly(new RawEndReport.StreamCounts(0x88b5, 1000, 100_000, 1200, 0));
        assertThat(r.cpuNanos()).isEqualTo(1_234_000);
        assertThat(r.nicPackets()).isEmpty();
        assertThat(r.json().toJson()).contains("\"role\":\"sender\"").contains("\"nic_tx_packets\":null");
    }
}
