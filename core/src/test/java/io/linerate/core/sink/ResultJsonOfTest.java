package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.TransferResult;
import org.junit.jupiter.api.Test;

/** The one JSON shape of every pattern's result, checked on the golden stream results. */
class ResultJsonOfTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aValidStreamResultCarriesItsMetricsAndItsOwnFieldsUnderDetail() throws Exception {
        TransferResult r = OutputFormatsGoldenTest.udpResult();
        JsonNode n = JSON.readTree(ResultJson.of(r).toJson());

        assertThat(n.get("format").asText()).isEqualTo("linerate-result");
        assertThat(n.get("version").asInt()).isEqualTo(1);
        assertThat(n.get("pattern").asText()).isEqualTo("stream");
        assertThat(n.get("valid").asBoolean()).isTrue();
        assertThat(n.get("invalid_reasons").isEmpty()).isTrue();
        // 4,029,248 bytes received in the 2 s window (0.5 s to 2.5 s): 4,029,248 x 8 / 2 = 16,116,992 bit/s
        // = 16.116992 Mbit/s; 698 of 5000 datagrams lost = 13.96 %; jitter 4000.5 ns = 0.0040005 ms
        JsonNode first = n.get("metrics").get(0);
        assertThat(first.get("name").asText()).isEqualTo("udp6_mbps");
        assertThat(first.get("value").asDouble()).isEqualTo(16.116992);
        assertThat(first.get("unit").asText()).isEqualTo("Mbit/s");
        assertThat(n.get("metrics")).extracting(m -> m.get("name").asText())
                .containsExactly("udp6_mbps", "udp6_jitter_ms", "udp6_lost_pct", "udp6_cpu_us_per_kb");
        assertThat(n.get("detail")).isEqualTo(JSON.readTree(ResultJson.transfer(r).toJson()));
    }

    @Test
    void anInvalidResultSaysWhyAtTheTop() throws Exception {
        TransferResult r = OutputFormatsGoldenTest.tcpResult();
        JsonNode n = JSON.readTree(ResultJson.of(r).toJson());

        assertThat(n.get("valid").asBoolean()).isFalse();
        assertThat(n.get("invalid_reasons").get(0).asText())
                .isEqualTo("receiver counted 9999000 bytes but the sender sent 10000000");
    }
}
