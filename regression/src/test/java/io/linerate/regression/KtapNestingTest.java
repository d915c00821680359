package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Test paths from KTAP nesting, and {@code # SKIP} results, as docs/metrics.md sections 2 and 5 define them. */
class KtapNestingTest {
    static String metric(String prefix, String name, double value) {
        return prefix + "ktap-metric-json: {\"host\":\"local\",\"name\":\"" + name + "\",\"shape\":\"scalar\",\"time\":1,"
                + "\"unit\":\"Mbit/s\",\"value\":" + value + "}\n";
    }

    /** Two ports, each with a subtest named throughput, nested by KTAP's four-space indentation. */
    static String indented(double a, double b) {
        return "KTAP version 1\n1..2\n"
                + "    KTAP version 1\n    # Subtest: port_a\n    1..1\n"
                + metric("    # ", "throughput", a)
                + "    ok 1 throughput\n"
                + "ok 1 port_a\n"
                + "    KTAP version 1\n    # Subtest: port_b\n    1..1\n"
                + metric("    # ", "throughput", b)
                + "    ok 1 throughput\n"
                + "ok 2 port_b\n";
    }

    /** The same two levels inside the kselftest runner, which prefixes each nested level with "# ". */
    static String runnerPrefixed(double a, double b) {
        return "TAP version 13\n1..1\n# selftests: net: ports.sh\n# KTAP version 1\n# 1..2\n"
                + "# # KTAP version 1\n# # 1..1\n"
                + metric("# # # ", "throughput", a)
                + "# # ok 1 throughput\n"
                + "# ok 1 port_a\n"
                + "# # KTAP version 1\n# # 1..1\n"
                + metric("# # # ", "throughput", b)
                + "# # ok 1 throughput\n"
                + "# ok 2 port_b\n"
                + "ok 1 selftests: net: ports.sh\n";
    }

    @Test
    void sameSubtestNameUnderTwoParentsIsTwoSeriesWhenIndented() {
        MetricSet s = MetricReaders.read("ports.log", indented(900, 900));
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).extracting(o -> o.key().test(), Observation::value)
                .containsExactly(tuple("port_a/throughput", 900.0), tuple("port_b/throughput", 900.0));
        GateReport r = gate(indented(900, 900), indented(100, 900));
        // port_a: (100 - 900) / 900 = -88.9 %, beyond 5 %; port_b unchanged
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind).containsExactly(
                tuple("port_a/throughput/throughput@local", Verdict.Kind.REGRESSION),
                tuple("port_b/throughput/throughput@local", Verdict.Kind.PASS));
        assertThat(r.verdicts().get(0).change()).isCloseTo(-800.0 / 900, within(1e-12));
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void sameSubtestNameUnderTwoParentsIsTwoSeriesInTheRunnersHashNesting() {
        MetricSet s = MetricReaders.read("ports.log", runnerPrefixed(900, 900));
        assertThat(s.errors()).isEmpty();
        // "# # # ktap-metric-json": three #, one its own, depth 2; "# # ok 1 throughput": depth 2;
        // "# ok 1 port_a": depth 1; "ok 1 selftests: net: ports.sh": depth 0
        assertThat(s.observations()).extracting(o -> o.key().test()).containsExactly(
                "selftests: net: ports.sh/port_a/throughput", "selftests: net: ports.sh/port_b/throughput");
        GateReport r = gate(runnerPrefixed(900, 900), runnerPrefixed(100, 900));
        assertThat(r.verdicts()).extracting(Verdict::kind).containsExactly(Verdict.Kind.REGRESSION, Verdict.Kind.PASS);
        assertThat(r.verdicts().get(0).key().test()).isEqualTo("selftests: net: ports.sh/port_a/throughput");
    }

    @Test
    void aMetricWithItsOwnTestGetsItsParentsAndDepthZeroKeepsTheFlatKeys() {
        String log = "    " + metric("# ", "rx_mbps", 5).strip().replace("\"time\":1,", "\"time\":1,\"test\":\"rx\",") + "\n"
                + "    ok 1 other\n"
                + "ok 1 port_a\n"
                + metric("# ", "tcp4_mbps", 7)
                + "ok 2 tcp4\n";
        MetricSet s = MetricReaders.read("own.log", log);
        assertThat(s.observations()).extracting(o -> o.key().display())
                .containsExactly("port_a/rx/rx_mbps@local", "tcp4/tcp4_mbps@local");
    }

    static GateReport gate(String baseLog, String currentLog) {
        Baseline b = Baseline.of(MetricReaders.read("base.log", baseLog), GateTest.ENV, GateTest.CREATED);
        return Gate.create().baseline(b).environment(GateTest.ENV).run(MetricReaders.read("cur.log", currentLog));
    }

    static final String SUITE_BASE = "KTAP version 1\n1..2\n"
            + metric("# ", "udp4_mbps", 1000) + "ok 1 udp4\n"
            + metric("# ", "udp4_frag_mbps", 800) + "ok 2 udp4_frag\n";
    static final String SUITE_SKIPPED = "KTAP version 1\n1..2\n"
            + metric("# ", "udp4_mbps", 1000) + "ok 1 udp4\n"
            + "ok 2 udp4_frag # SKIP no fragmentation on this host\n";

    @Test
    void aSkippedTestGivesASkipVerdictCarryingItsReasonNotMissing() {
        MetricSet cur = MetricReaders.read("cur.log", SUITE_SKIPPED);
        assertThat(cur.skippedTests()).containsExactly(
                new SkippedTest("udp4_frag", "no fragmentation on this host", "cur.log", 5));
        GateReport r = gate(SUITE_BASE, SUITE_SKIPPED);
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind, Verdict::failing).containsExactly(
                tuple("udp4/udp4_mbps@local", Verdict.Kind.PASS, false),
                tuple("udp4_frag/udp4_frag_mbps@local", Verdict.Kind.SKIP, false));
        assertThat(r.verdicts().get(1).reason())
                .isEqualTo("skipped: no fragmentation on this host (test udp4_frag at cur.log:5)");
        assertThat(r.exitCode()).isZero();
        assertThat(Reports.ktap(r)).contains("ok 2 udp4_frag/udp4_frag_mbps@local # SKIP skipped: no fragmentation on"
                + " this host (test udp4_frag at cur.log:5)\n").endsWith("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0\n");
    }

    @Test
    void aLogWhoseOnlyTestWasSkippedIsNotAnEmptyInput() {
        Baseline b = Baseline.of(MetricReaders.read("base.log", "ZPERF-RESULT udp4_frag_mbps=800\n"), GateTest.ENV, GateTest.CREATED);
        MetricSet cur = MetricReaders.read("cur.log", "KTAP version 1\n1..1\nok 1 udp4_frag # SKIP no fragmentation on this host\n");
        assertThat(cur.errors()).isEmpty();
        GateReport r = Gate.create().baseline(b).run(cur);
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind).containsExactly(
                tuple("udp4_frag_mbps@local", Verdict.Kind.SKIP), tuple("baseline@gate", Verdict.Kind.ERROR));
        // every baselined series skipped: the gate compared nothing, which is no pass
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void onSkipFailMakesTheSkipFail() {
        Policies file = Policies.parseFile("p.json", "[{\"name\":\"udp4_frag_mbps\",\"regression\":{\"better\":\"higher\","
                + "\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"on_skip\":\"fail\"}]");
        assertThat(file.filePolicies().get(0).onSkip()).isEqualTo(Policy.OnSkip.FAIL);
        Baseline b = Baseline.of(MetricReaders.read("base.log", SUITE_BASE), GateTest.ENV, GateTest.CREATED);
        GateReport r = Gate.create().baseline(b).policies(file).run(MetricReaders.read("cur.log", SUITE_SKIPPED));
        Verdict v = r.verdicts().get(1);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.SKIP);
        assertThat(v.failing()).isTrue();
        assertThat(v.policySource()).isEqualTo("file");
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(Reports.ktap(r)).contains("not ok 2 udp4_frag/udp4_frag_mbps@local # skipped: no fragmentation on"
                + " this host (test udp4_frag at cur.log:5); on_skip: fail\n").endsWith("# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0\n");
        assertThat(Policies.parseFile("p.json", "[{\"name\":\"a\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}]").filePolicies().get(0).onSkip())
                .isEqualTo(Policy.OnSkip.SKIP);
    }

    @Test
    void aSeriesWithoutTestPathBelongsToTheSkippedTestItsNameStartsWith() {
        // a zperf console log: no KTAP tests, so the series have no test path
        Baseline b = Baseline.of(MetricReaders.read("base.log", "ZPERF-RESULT udp4_mbps=1000\nZPERF-RESULT udp4_frag_mbps=800\n"),
                GateTest.ENV, GateTest.CREATED);
        GateReport r = Gate.create().baseline(b).run(MetricReaders.read("cur.log",
                "ok 1 udp4_frag # skip no fragmentation on this host\nZPERF-RESULT udp4_mbps=1000\n"));
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind).containsExactly(
                tuple("udp4_mbps@local", Verdict.Kind.PASS), tuple("udp4_frag_mbps@local", Verdict.Kind.SKIP));
        // by name: a skipped udp4 alone claims udp4_frag_mbps too (its name starts with "udp4_"); when udp4_frag
        // is skipped as well, the longer name wins; tcp4_mbps belongs to neither
        assertThat(SkippedTest.owning(SeriesKey.of("udp4_frag_mbps", "local"),
                List.of(new SkippedTest("udp4", "", "x", 1)))).isPresent();
        assertThat(SkippedTest.owning(SeriesKey.of("udp4_frag_mbps", "local"), List.of(
                new SkippedTest("udp4", "a", "x", 1), new SkippedTest("udp4_frag", "b", "x", 2))).orElseThrow().reason())
                .isEqualTo("b");
        assertThat(SkippedTest.owning(SeriesKey.of("tcp4_mbps", "local"), List.of(new SkippedTest("udp4", "", "x", 1))))
                .isEmpty();
        // with a test path, only that test or a parent owns it: port_b owns port_b/throughput, port_a does not
        SeriesKey portB = new SeriesKey("port_b/throughput", "throughput", "local", null);
        assertThat(SkippedTest.owning(portB, List.of(new SkippedTest("port_a", "", "x", 1)))).isEmpty();
        assertThat(SkippedTest.owning(portB, List.of(new SkippedTest("port_b", "", "x", 1)))).isPresent();
        assertThat(SkippedTest.owning(portB, List.of(new SkippedTest("port_b/through", "", "x", 1)))).isEmpty();
    }

    @Test
    void aSkippedParentSkipsItsSubtestsMetricsAndOtherAbsentSeriesStayMissing() {
        String cur = "KTAP version 1\n1..2\n"
                + "    KTAP version 1\n    1..1\n" + metric("    # ", "throughput", 900) + "    ok 1 throughput\nok 1 port_a\n"
                + "ok 2 port_b # SKIP no second port\n";
        GateReport r = gate(indented(900, 900), cur);
        assertThat(r.verdicts()).extracting(v -> v.key().test(), Verdict::kind).containsExactly(
                tuple("port_a/throughput", Verdict.Kind.PASS), tuple("port_b/throughput", Verdict.Kind.SKIP));
        assertThat(r.verdicts().get(1).reason()).isEqualTo("skipped: no second port (test port_b at cur.log:8)");
        String portAOnly = "KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n" + metric("    # ", "throughput", 900)
                + "    ok 1 throughput\nok 1 port_a\n";
        assertThat(gate(indented(900, 900), portAOnly).verdicts()).extracting(Verdict::kind, Verdict::failing)
                .containsExactly(tuple(Verdict.Kind.PASS, false), tuple(Verdict.Kind.MISSING, true));
    }
}
