package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code loopback --zero-loss}: identities that hold on a busy host (the found rate at most the
 * max, every trial's counts adding up, the ndr line beside the unchanged mbps line), never a rate.
 */
class LoopbackZeroLossCommandTest {
    private static final String[] QUICK = {"loopback", "--zero-loss", "--markers", "udp4,tcp4", "--family", "4",
        "--duration", "200ms", "--warmup", "50ms", "--interval", "50ms", "--zero-loss-trial", "200ms"};

    private static String[] with(String... more) {
        String[] a = java.util.Arrays.copyOf(QUICK, QUICK.length + more.length);
        System.arraycopy(more, 0, a, QUICK.length, more.length);
        return a;
    }

    @Test
    void ktapHasTheNdrMetricWithItsPolicyInTheUdpMarkersTestBesideTheUnchangedMbpsLine() {
        LinerateCliTest.Run r = LinerateCliTest.linerate(with("--ktap"));
        List<String> lines = r.lines();
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("# unlimited-rate UDP loses datagrams on loopback, "
                + "as expected: the sender outruns the receiver on a shared host"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("# zero-loss search (RFC 2544 section 26.1 NDR) of "
                + "each udp marker: trials of 0.200 s after 0.050 s warm-up"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("ZPERF-RESULT udp4_mbps="));
        assertThat(lines).noneSatisfy(l -> assertThat(l).startsWith("ZPERF-RESULT tcp4_ndr_mbps="));
        int ok = lines.indexOf("ok 1 udp4");
        if (ok < 0) {
            // on a host so busy that even the min rate lost, the marker's test fails and says why; no metric
            assertThat(lines).contains("not ok 1 udp4 # zero-loss search: even the min rate lost");
            assertThat(r.exit()).isEqualTo(1);
            return;
        }
        List<String> test = lines.subList(0, ok);
        assertThat(test).anySatisfy(l -> assertThat(l).startsWith("ZPERF-RESULT udp4_ndr_mbps="));
        assertThat(test).contains("# ktap-metric-policy-json: {\"name\":\"udp4_ndr_mbps\",\"regression\":{\"better\":"
                + "\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}");
        assertThat(test).anySatisfy(l -> assertThat(l).startsWith("# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp4_ndr_mbps\""));
        assertThat(test).anySatisfy(l -> assertThat(l).startsWith("# udp4 zero-loss: NDR "));
    }

    @Test
    void jsonCarriesTheSearchInTheUdpMarkersObjectAndItsTrialsAddUp() throws Exception {
        LinerateCliTest.Run r = LinerateCliTest.linerate(with("--json"));
        assertThat(r.exit()).as(r.err()).isIn(0, 1);
        List<String> lines = r.lines();
        assertThat(lines).hasSize(2);
        ObjectMapper m = new ObjectMapper();
        JsonNode udp = m.readTree(lines.get(0));
        JsonNode tcp = m.readTree(lines.get(1));
        assertThat(udp.get("marker").asText()).isEqualTo("udp4");
        assertThat(tcp.has("zero_loss")).isFalse();
        JsonNode z = udp.get("zero_loss");
        assertThat(z.get("search").asText()).isEqualTo("ndr");
        assertThat(z.get("max_source").asText()).isEqualTo("unlimited trial");
        for (JsonNode t : z.get("trials")) {
            assertThat(t.get("sent").asLong()).isEqualTo(t.get("received").asLong() + t.get("lost").asLong());
        }
        if (!z.get("found_bps").isNull()) {
            assertThat(z.get("found_bps").asLong()).isLessThanOrEqualTo(z.get("max_bps").asLong())
                    .isGreaterThanOrEqualTo(z.get("min_bps").asLong());
        }
    }
}
