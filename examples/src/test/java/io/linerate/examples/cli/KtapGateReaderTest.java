package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.regression.MetricReaders;
import io.linerate.regression.MetricSet;
import io.linerate.regression.SeriesKey;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every command's {@code --ktap} output is one whole KTAP document that linerate's own gate reads
 * back: each {@code ktap-metric-json} line becomes one observation with the same name, host,
 * labels and value, keyed by the document's test, and nothing is an error.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KtapGateReaderTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String METRIC = "# ktap-metric-json: ";

    @Test
    void stream() throws IOException {
        LinerateCliTest.Run r = LinerateCliTest.linerate("stream", "--duration", "200ms", "--warmup", "50ms",
                "--interval", "100ms", "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).contains("ok 1 tcp4").last().isEqualTo("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0");
        assertThat(gateReadsEveryMetricUnder(r.out(), "tcp4")).contains("tcp4_mbps");
    }

    @Test
    void pingpong() throws IOException {
        List<String> args = new ArrayList<>(List.of("pingpong", "--protocol", "pipe", "--sizes", "1,64", "--ktap"));
        args.addAll(PingPongCommandTest.SHORT);
        LinerateCliTest.Run r = LinerateCliTest.linerate(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).contains("ok 1 pingpong_pipe").last().asString().startsWith("# Totals: pass:1 fail:0");
        assertThat(gateReadsEveryMetricUnder(r.out(), "pingpong_pipe")).contains("latency_p50", "latency_p99");
    }

    @Test
    void rr() throws IOException {
        LinerateCliTest.Run r = LinerateCliTest.linerate("rr", "--duration", "200ms", "--warmup", "50ms", "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.lines()).contains("ok 1 tcp_rr").last().asString().startsWith("# Totals: pass:1 fail:0");
        assertThat(gateReadsEveryMetricUnder(r.out(), "tcp_rr")).contains("transactions_per_second", "latency_p50");
    }

    @Test
    void loopback() throws IOException {
        LinerateCliTest.Run r = LinerateCliTest.linerate("loopback", "--markers", "tcp4,udp4_frag", "--duration", "200ms",
                "--warmup", "50ms", "--ktap");
        assertThat(r.exit()).as(r.err()).isZero();
        // with the native layer on the command line's class path, the nio stream reads its sender's tcp_info
        assertThat(gateReadsEveryMetricUnder(r.out(), "tcp4")).containsExactly("tcp4_mbps", "tcp4_retransmits",
                "tcp4_cpu_us_per_kb");
        // the skipped marker is a skipped test for the gate, with the suite's reason
        assertThat(MetricReaders.read("loopback.ktap", r.out()).skippedTests()).singleElement()
                .satisfies(s -> {
                    assertThat(s.test()).isEqualTo("udp4_frag");
                    assertThat(s.reason()).startsWith("loopback MTU ");
                });
    }

    /**
     * Reads {@code ktap} with the gate's reader and checks that it found exactly the metric lines
     * of the document, in order, each under {@code test}.
     *
     * @return the names of the metrics read
     */
    static List<String> gateReadsEveryMetricUnder(String ktap, String test) throws IOException {
        assertThat(ktap).startsWith("KTAP version 1\n1..");
        List<String> expected = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String line : ktap.lines().toList()) {
            if (line.startsWith(METRIC)) {
                JsonNode m = JSON.readTree(line.substring(METRIC.length()));
                TreeMap<String, String> labels = new TreeMap<>();
                m.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
                expected.add(new SeriesKey(test, m.get("name").asText(), m.get("host").asText(), labels).display()
                        + " = " + m.get("value").asDouble() + " " + m.get("unit").asText());
                names.add(m.get("name").asText());
            }
        }
        MetricSet set = MetricReaders.read("cli.ktap", ktap);
        assertThat(set.errors()).isEmpty();
        assertThat(set.observations()).extracting(o -> o.key().display() + " = " + o.value() + " " + o.unit())
                .containsExactlyElementsOf(expected).isNotEmpty();
        return names;
    }
}
