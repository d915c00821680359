package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.sink.LatencyJson;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import io.linerate.core.sink.KtapSink;
import io.linerate.testsupport.GoldenFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The sfnt-pingpong table, JSON and ktap lines sealed by golden files under a locale that writes
 * decimal points and one that writes commas; run facts are injected so the files do not depend on
 * the host. Run with {@code -Dlinerate.golden.update=true} to rewrite them after a deliberate change.
 */
class LatencyReportTest {
    private static final Locale ORIGINAL = Locale.getDefault();
    static final RunFacts FACTS = new RunFacts("1.2.3", "2026-01-02T03:04:05Z", "Linux 6.1.0 amd64",
            "Example CPU @ 2.00GHz", "OpenJDK 64-Bit Server VM 17.0.15+6 (Example)",
            "--protocol tcp --sizes 1,64,1472");

    @AfterEach
    void restoreLocale() {
        Locale.setDefault(ORIGINAL);
    }

    static LatencyReport report(LatencyMode mode, double percentile) {
        return new LatencyReport(FACTS, mode, percentile, List.of(
                new SizeLatency(1, LatencyStatsTest.of(100, 200, 300, 400, 1000), 2_000_000, 1.5),
                new SizeLatency(64, LatencyStatsTest.of(1001), 1_000, 2.25),
                new SizeLatency(1472, LatencyHistograms.create(), 0, 3)));
    }

    static void setLocale(String tag) {
        Locale.setDefault(tag.equals("ROOT") ? Locale.ROOT : Locale.GERMANY);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void halfRttTable(String locale) throws IOException {
        setLocale(locale);
        String t = report(LatencyMode.HALF_RTT, 99).table();
        GoldenFiles.assertMatches("latency/pingpong-half-rtt.txt", t);
        // hand-computed: half of {100,200,300,400,1000}; 1001/2 = 500.5 rounds to 501
        assertThat(t).contains("\t1\t200\t50\t150\t500\t500\t158\t5\n")
                .contains("\t64\t501\t501\t501\t501\t501\t0\t1\n")
                .contains("\t1472\t-\t-\t-\t-\t-\t-\t0\n")
                .contains("# values: half-RTT in ns");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void rttTableWithNote(String locale) throws IOException {
        setLocale(locale);
        LatencyReport r = report(LatencyMode.RTT, 99.9);
        LatencyReport noted = new LatencyReport(r.facts(), r.mode(), r.percentile(), r.sizes(),
                List.of("closed loop: values at p99 and above understate tail latency"));
        GoldenFiles.assertMatches("latency/pingpong-rtt.txt", noted.table());
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void json(String locale) throws IOException {
        setLocale(locale);
        String line = LatencyJson.latency(report(LatencyMode.HALF_RTT, 99.9)).toJson();
        GoldenFiles.assertMatches("latency/pingpong.json", line + "\n");
        JsonNode j = new ObjectMapper().readTree(line);
        assertThat(j.get("latency").asText()).isEqualTo("half-RTT");
        assertThat(j.get("results").get(0).get("stddev").asDouble()).isEqualTo(Math.sqrt(100_000) / 2);
        assertThat(j.get("results").get(2).has("mean")).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"ROOT", "de-DE"})
    void ktapLines(String locale) throws IOException {
        setLocale(locale);
        StringWriter w = new StringWriter();
        try (MetricSink s = new KtapSink(new PrintWriter(w))) {
            report(LatencyMode.HALF_RTT, 99).metrics(Map.of("protocol", "tcp")).forEach(s::accept);
        }
        GoldenFiles.assertMatches("latency/pingpong-ktap.txt", w.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void metricsCarrySizeAndModeLabelsAndLowerIsBetter() {
        List<Metric> m = report(LatencyMode.RTT, 99.9).metrics(Map.of());
        // two sizes with samples, six metrics each (mean, min, p50, p99.9, max, stddev); the empty size has none
        assertThat(m).hasSize(12);
        assertThat(m).allSatisfy(x -> {
            assertThat(x.better()).isEqualTo(Better.LOWER);
            assertThat(x.unit()).isEqualTo("ns");
            assertThat(x.labels()).containsEntry("latency", "rtt").containsKey("size");
        });
        assertThat(m).extracting(Metric::name).startsWith("latency_mean", "latency_min", "latency_p50",
                "latency_p99.9", "latency_max", "latency_stddev");
        assertThat(m.get(2).value()).isEqualTo(300);
        assertThat(m.get(6).labels()).containsEntry("size", "64");
        assertThat(m.get(6).value()).isEqualTo(1001);
        // p50 chosen: not written twice
        assertThat(report(LatencyMode.RTT, 50).metrics(Map.of())).hasSize(10)
                .filteredOn(x -> x.labels().get("size").equals("1")).extracting(Metric::name)
                .containsExactly("latency_mean", "latency_min", "latency_p50", "latency_max", "latency_stddev");
    }

    @Test
    void tableJsonAndMetricsNeverReportAboveTheLargestRoundTrip() throws IOException {
        // round trips {500, 700, 1000001} ns; half-RTT {250, 350, 500000.5}. HdrHistogram's slot of
        // 1000001 at 3 digits is 999936..1000447, so unclamped max and p99 would be 1000447 / 2 =
        // 500223.5. Mean: HdrHistogram's over slot middles, (500 + 700 + 1000192) / 3 / 2 =
        // 166898.67, rounds to 166899. Median: the 2nd of 3, 700 / 2 = 350.
        LatencyReport r = new LatencyReport(FACTS, LatencyMode.HALF_RTT, 99, List.of(
                new SizeLatency(32, LatencyStatsTest.of(500, 700, 1_000_001), 1_000_000, 1)));
        assertThat(r.table()).contains("\t32\t166899\t250\t350\t500001\t500001\t")
                .contains("# precision: HdrHistogram, 3 significant digits (values within 0.1 %); "
                        + "min and max exact, percentiles clamped to them\n");
        JsonNode json = new ObjectMapper().readTree(LatencyJson.latency(r).toJson());
        JsonNode size = json.get("results").get(0);
        assertThat(size.get("max").asDouble()).isEqualTo(500_000.5);
        assertThat(size.get("percentile_value").asDouble()).isEqualTo(500_000.5);
        assertThat(json.get("significant_digits").asInt()).isEqualTo(3);
        assertThat(r.metrics(Map.of())).filteredOn(m -> m.name().equals("latency_max") || m.name().equals("latency_p99"))
                .extracting(Metric::value).containsExactly(500_000.5, 500_000.5);
    }

    @Test
    void rawLogsReadBackAsTheRecordedHistograms(@TempDir Path dir) throws IOException {
        LatencyReport r = report(LatencyMode.HALF_RTT, 99);
        List<Path> files = r.writeRawLogs(dir.resolve("raw"), 1_700_000_000_000L);
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("size-1.hlog", "size-64.hlog", "size-1472.hlog");
        String text = Files.readString(files.get(0), StandardCharsets.UTF_8);
        assertThat(text).contains("#linerate 1.2.3 ping-pong, message size 1 bytes, values: round-trip time in ns "
                        + "(report: half-RTT), exact min 100 max 1000; HdrHistogram, 3 significant digits (values "
                        + "within 0.1 %); min and max exact, percentiles clamped to them\n")
                .contains("#[StartTime: 1700000000.000");
        for (int i = 0; i < files.size(); i++) {
            HistogramLogReader reader = new HistogramLogReader(files.get(i).toFile());
            EncodableHistogram e = reader.nextIntervalHistogram();
            assertThat(e).isInstanceOf(Histogram.class);
            Histogram h = (Histogram) e;
            Histogram expected = r.sizes().get(i).roundTrips().toHistogram();
            assertThat(h.getTotalCount()).isEqualTo(expected.getTotalCount());
            assertThat(h.getMaxValue()).isEqualTo(expected.getMaxValue());
            assertThat(h).isEqualTo(expected);
            assertThat(reader.nextIntervalHistogram()).isNull();
        }
    }

    @Test
    void cpuModelIsTheFirstModelNameLine(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("cpuinfo");
        Files.writeString(f, "processor\t: 0\nvendor_id\t: X\nmodel name\t: Example CPU @ 2.00GHz\n\nprocessor\t: 1\n"
                + "model name\t: Other\n");
        assertThat(RunFacts.cpuModel(f)).hasValue("Example CPU @ 2.00GHz");
        Files.writeString(f, "processor\t: 0\n");
        assertThat(RunFacts.cpuModel(f)).isEmpty();
        assertThat(RunFacts.cpuModel(dir.resolve("missing"))).isEmpty();
        RunFacts here = RunFacts.detect("9.9", "--x");
        assertThat(here.version()).isEqualTo("9.9");
        assertThat(here.options()).isEqualTo("--x");
        assertThat(here.date()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }
}
