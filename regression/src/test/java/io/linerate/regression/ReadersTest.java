package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class ReadersTest {

    @Test
    void loopbackLogPrefersKtapLinesOverZperfLinesAndTakesTestsFromResultLines() {
        MetricSet s = TestFiles.read("loopback.log");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations())
                .extracting(o -> o.key().display(), Observation::value, Observation::unit, Observation::line)
                .containsExactly(
                        tuple("udp4/udp4_mbps@local", 1234.5671, "Mbit/s", 6),
                        tuple("udp4/udp4_jitter_ms@local", 0.0123, "ms", 8),
                        tuple("udp4/udp4_mbps@local", 1210.0021, "Mbit/s", 10),
                        tuple("udp4/udp4_jitter_ms@local", 0.0141, "ms", 11),
                        tuple("udp4/udp4_mbps@local", 1251.3004, "Mbit/s", 13),
                        tuple("udp4/udp4_jitter_ms@local", 0.0119, "ms", 14),
                        tuple("tcp4/tcp4_mbps@local", 9120.5, "Mbit/s", 16),
                        tuple("tcp4/tcp4_mbps@local", 9080.25, "Mbit/s", 17),
                        tuple("tcp4/tcp4_mbps@local", 9133.0, "Mbit/s", 18));
        assertThat(s.observations()).allMatch(o -> o.run().equals("loopback.log"));
        assertThat(s.embeddedPolicies()).extracting(Policy::name).containsExactly("udp4_mbps", "udp4_jitter_ms");
        assertThat(s.observations().get(0).timeSeconds()).isEqualTo(2.503117);
    }

    @Test
    void anyPrefixOfSpacesTabsHashesAndHashColonParsesAndOmittedSamplesAreExcluded() {
        MetricSet s = TestFiles.read("prefixes.log");
        assertThat(s.errors()).isEmpty();
        Map<String, String> streams = new TreeMap<>(Map.of("streams", "4"));
        // depths by hand: "#   # ktap-metric-json" has two #, one its own: depth 1; "# # ktap-metric-json": 1;
        // "#: ktap-metric-json": its own #: only, depth 0; "\tktap-metric-json": one tab, depth 1; "# ok 1
        // throughput": 1; "ok 1 selftests: ...": 0. So the throughput lines belong to throughput inside the
        // runner's test, the depth-1 rtt_ns line (test "ping") is inside it too, and the depth-0 one is not.
        String runner = "selftests: drivers/net: throughput.py";
        assertThat(s.observations())
                .extracting(o -> o.key().display(), Observation::value, Observation::run)
                .containsExactly(
                        tuple(runner + "/throughput/throughput@remote", 321.165, "prefixes.log"),
                        tuple(runner + "/throughput/throughput{streams=4}@local", 318.2, "r1"),
                        tuple("ping/rtt_ns@local", 18250.0, "prefixes.log"),
                        tuple(runner + "/ping/rtt_ns@local", 18300.0, "prefixes.log"));
        assertThat(s.observations().get(1).key().labels()).isEqualTo(streams);
        // 2026-01-05T10:00:01.5Z = 1767607201.5 s since the epoch
        assertThat(s.observations().get(1).timeSeconds()).isEqualTo(1767607201.5);
    }

    @Test
    void badLinesBecomeProblemsNamingTheirLineNumbers() {
        MetricSet s = TestFiles.read("broken.log");
        assertThat(s.observations()).extracting(o -> o.key().name(), Observation::value)
                .containsExactly(tuple("udp4_mbps", 101.5), tuple("udp4_frag_mbps", 50.0), tuple("udp4_frag_mbps", 0.05));
        assertThat(s.errors()).extracting(Problem::line, Problem::name)
                .containsExactly(tuple(3, ""), tuple(4, ""), tuple(5, "tcp6_mbps"), tuple(6, "udp6_mbps"),
                        tuple(9, "tcp4_nodelay_mbps"));
        assertThat(s.errors().get(0).message()).startsWith("malformed ktap-metric-json payload");
        assertThat(s.errors().get(2).message()).contains("shape \"histogram\" is not allowed");
        assertThat(s.errors().get(3).message()).contains("value").contains("finite number");
        assertThat(s.errors().get(4).message()).contains("'fast'").contains("finite decimal number");
    }

    @Test
    void linerateJsonLinesGiveMarkerMbpsAndBareMetricRecords() {
        MetricSet s = TestFiles.read("results.jsonl");
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::value, Observation::unit)
                .containsExactly(
                        tuple("tcp4/tcp4_mbps@local", 9120.5, "Mbit/s"),
                        tuple("tcp4/tcp4_mbps@local", 9080.25, "Mbit/s"),
                        tuple("tcp4_cpu_us_per_kb@local", 0.42, "us/KB"));
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(3);
            assertThat(p.name()).isEqualTo("udp6_mbps");
            assertThat(p.message()).contains("no bits_per_second");
        });
    }

    @Test
    void aWholeLinerateResultDocumentIsRead() {
        // 975,000,000 bytes in a 1.5 s window = 5.2e9 bit/s = 5200 Mbit/s
        MetricSet s = TestFiles.read("result.json");
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::value, Observation::unit)
                .containsExactly(tuple("tcp6_nodelay/tcp6_nodelay_mbps@local", 5200.0, "Mbit/s"));
        MetricSet arr = MetricReaders.read("results.json", "[{\"version\":1,\"marker\":\"udp4\",\"bits_per_second\":1.5e7},"
                + "{\"version\":2,\"marker\":\"udp6\",\"bits_per_second\":1e6}]");
        assertThat(arr.observations()).extracting(o -> o.key().name(), Observation::value).containsExactly(tuple("udp4_mbps", 15.0));
        assertThat(arr.errors()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).isEqualTo("result line udp6 has version 2; this linerate reads version 1");
        });
    }

    @Test
    void theOneResultShapeOfEveryPatternIsReadFromItsMetricsAndAnInvalidOneIsAnError() {
        String pingPong = "{\"format\":\"linerate-result\",\"version\":1,\"pattern\":\"ping-pong\",\"valid\":true,"
                + "\"invalid_reasons\":[],\"metrics\":[{\"host\":\"local\",\"labels\":{\"size\":\"64\"},"
                + "\"name\":\"tcp_pingpong_p50_ns\",\"shape\":\"scalar\",\"time\":2.0,\"unit\":\"ns\",\"value\":17250.0}],"
                + "\"detail\":{\"marker\":\"not-read\",\"version\":1}}";
        String invalidRaw = "{\"format\":\"linerate-result\",\"version\":1,\"pattern\":\"raw-frames\",\"valid\":false,"
                + "\"invalid_reasons\":[\"3 frames lost\"],\"metrics\":[],\"detail\":{}}";

        MetricSet whole = MetricReaders.read("pp.json", pingPong);
        assertThat(whole.errors()).isEmpty();
        // the metric record as written; the detail's own marker is not a stream summary and is not read
        assertThat(whole.observations()).extracting(o -> o.key().name(), Observation::value, Observation::unit)
                .containsExactly(tuple("tcp_pingpong_p50_ns", 17250.0, "ns"));

        MetricSet lines = MetricReaders.read("run.jsonl", pingPong + "\n" + invalidRaw + "\n");
        assertThat(lines.observations()).extracting(o -> o.key().name()).containsExactly("tcp_pingpong_p50_ns");
        assertThat(lines.errors()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.message()).isEqualTo("raw-frames result is marked invalid: [\"3 frames lost\"]");
        });
    }

    @Test
    void zperfLinesAloneAreReadWithMbpsUnitAndKtapWinsForTheSameNameAndHost() {
        MetricSet s = MetricReaders.read("console.log", String.join("\n",
                "[00:00:12.345,000] <inf> zperf: ZPERF-RESULT udp4_mbps=13.099",
                "ZPERF-RESULT tcp4_mbps=20.5",
                "ZPERF-RESULT udp_count=7",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":1,\"unit\":\"Mbit/s\",\"value\":20.4567}",
                "ZPERF-DONE"));
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().name(), Observation::value, Observation::unit)
                .containsExactly(tuple("udp4_mbps", 13.099, "Mbit/s"), tuple("udp_count", 7.0, ""),
                        tuple("tcp4_mbps", 20.4567, "Mbit/s"));
    }

    @Test
    void malformedZperfLinesAreErrorsNamingTheirLine() {
        MetricSet s = MetricReaders.read("z.log", String.join("\n",
                "ZPERF-RESULT =5",
                "ZPERF-RESULT tcp4_mbps",
                "ZPERF-RESULT",
                "ZPERF-RESULT tcp4_mbps=5 extra",
                "ZPERF-RESULT tcp4_mbps=6000",
                "ZPERF-DONE"));
        assertThat(s.errors()).extracting(Problem::line).containsExactly(1, 2, 3, 4);
        assertThat(s.errors()).allSatisfy(p -> assertThat(p.message()).startsWith("malformed ZPERF-RESULT line"));
        assertThat(s.observations()).extracting(Observation::value).containsExactly(6000.0);
    }

    @Test
    void twisterRecordingsWithStringValues() {
        MetricSet s = TestFiles.read("twister.json");
        assertThat(s.observations()).extracting(o -> o.key().display(), Observation::value, Observation::unit)
                .containsExactly(
                        tuple("sample.net.zperf.netusb_ecm/udp_upload_mbps{platform=frdm_k64f}@local", 91.53, "Mbit/s"),
                        tuple("sample.net.zperf.netusb_ecm/tcp_upload_mbps{platform=frdm_k64f}@local", 88.2, "Mbit/s"),
                        tuple("sample.net.zperf.netusb_ecm/context_switch_cycles{platform=frdm_k64f}@local", 120.0, ""),
                        tuple("sample.net.zperf.netusb_ecm/context_switch_nanoseconds{platform=frdm_k64f}@local", 1000.0, ""));
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo("udp_upload_mbps");
            assertThat(p.message()).contains("sample.net.zperf.bad").contains("'fast'");
        });
    }

    @Test
    void iperf3ErrorIsAnError() {
        MetricSet s = TestFiles.read("iperf3-error.json");
        assertThat(s.observations()).isEmpty();
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.name()).isEqualTo("tcp4_mbps");
            assertThat(p.message()).contains("Connection refused");
        });
    }

    @Test
    void anInputWithoutMetricsIsAnError() {
        MetricSet s = MetricReaders.read("empty.log", "KTAP version 1\n1..0\n");
        assertThat(s.errors()).singleElement().satisfies(p -> assertThat(p.message()).startsWith("input holds no metrics"));
        assertThat(MetricReaders.read("blank.log", "").errors()).hasSize(1);
    }

    @Test
    void embeddedPolicyWithUnknownKeyIsAWarningAndABadOneAnError() {
        MetricSet s = MetricReaders.read("p.log", String.join("\n",
                "# ktap-metric-policy-json: {\"name\":\"a_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"colour\":\"red\"}",
                "# ktap-metric-policy-json: {\"name\":\"b_mbps\",\"regression\":{\"better\":\"up\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"a_mbps\",\"shape\":\"scalar\",\"time\":1,\"value\":3}"));
        assertThat(s.embeddedPolicies()).extracting(Policy::name).containsExactly("a_mbps");
        assertThat(s.warnings()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(1);
            assertThat(p.message()).contains("unknown key colour");
        });
        assertThat(s.errors()).singleElement().satisfies(p -> {
            assertThat(p.line()).isEqualTo(2);
            assertThat(p.name()).isEqualTo("b_mbps");
            assertThat(p.message()).contains("regression.better 'up' is not allowed; allowed: higher, lower");
        });
    }

    @Test
    void aNanValueIsNamedAsNotAFiniteNumber() {
        MetricSet s = MetricReaders.read("nan.log",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"x_mbps\",\"shape\":\"scalar\",\"time\":1,\"value\":NaN}\n");
        assertThat(s.errors()).singleElement().satisfies(p -> assertThat(p.message()).isEqualTo(
                "malformed ktap-metric-json payload: value NaN is not allowed; allowed: a finite number (JSON has no NaN or infinities)"));
    }

    @Test
    void theSuitesJsonRecordOfASkippedMarkerIsASkippedTestNotAnError() {
        // loopback --json writes one object per marker; a marker it did not run is {"marker":..,"skipped":true,"reason":..}
        MetricSet s = MetricReaders.read("suite.jsonl", String.join("\n",
                "{\"version\":1,\"marker\":\"udp4\",\"bits_per_second\":1.5e7}",
                "{\"marker\":\"udp4_frag\",\"skipped\":true,\"reason\":\"loopback MTU 65536 does not fragment 2000-byte datagrams\"}", ""));
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).singleElement().satisfies(o -> assertThat(o.value()).isEqualTo(15.0));
        assertThat(s.skippedTests()).singleElement().satisfies(t -> {
            assertThat(t.test()).isEqualTo("udp4_frag");
            assertThat(t.reason()).isEqualTo("loopback MTU 65536 does not fragment 2000-byte datagrams");
        });
    }

    @Test
    void aPolicyFileWithAMisspeltRegressionKeyNamesIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Policies.parseFile("p.json",
                        "[{\"name\":\"a_mbps\",\"regresion\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}]"))
                .hasMessageContaining("'regression' object is missing; unknown key regresion");
    }
}
