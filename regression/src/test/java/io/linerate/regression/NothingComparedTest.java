package io.linerate.regression;

import static io.linerate.regression.GateTest.ENV;
import static io.linerate.regression.GateTest.baseline;
import static io.linerate.regression.GateTest.metrics;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A gate given a baseline that compared nothing has not passed (METRICS-SPEC section 5). */
class NothingComparedTest {
    private static final Environment OTHER_KERNEL = new Environment("Linux 6.12.0", ENV.cpu(), ENV.jvm(), "nio", "0.2.0");

    private static Verdict gateVerdict(GateReport r) {
        List<Verdict> own = r.verdicts().stream().filter(v -> v.key().host().equals(NothingCompared.HOST)).toList();
        assertThat(own).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.ERROR);
            assertThat(v.failing()).isTrue();
            assertThat(v.key().display()).isEqualTo("baseline@gate");
        });
        assertThat(r.exitCode()).isEqualTo(1);
        return own.get(0);
    }

    @Test
    void noSeriesInCommonFailsNamingBothSides() {
        GateReport r = Gate.create().baseline(baseline(metrics("tcp4_mbps", "Mbit/s", 100)))
                .run(MetricReaders.read("cur.log", metrics("udp6_mbps", "Mbit/s", 90)));
        assertThat(gateVerdict(r).reason()).isEqualTo("compared nothing against the baseline: no series is in both;"
                + " 1 missing. The baseline had 1 series (tcp4_mbps@local); this run produced 1 series (udp6_mbps@local)");
        assertThat(Reports.ktap(r)).contains("not ok 3 baseline@gate # error: compared nothing against the baseline");
    }

    @Test
    void everySeriesMissingFails() {
        // the only series in common is not in the baseline's direction: the baseline's two are both absent now
        GateReport r = Gate.create().baseline(baseline(metrics("tcp4_mbps", "Mbit/s", 100) + metrics("tcp6_mbps", "Mbit/s", 100)))
                .run(MetricReaders.read("cur.log", metrics("udp4_mbps", "Mbit/s", 50)));
        assertThat(r.verdicts()).filteredOn(v -> v.kind() == Verdict.Kind.MISSING).hasSize(2);
        assertThat(gateVerdict(r).reason()).contains("no series is in both; 2 missing")
                .contains("The baseline had 2 series (tcp4_mbps@local, tcp6_mbps@local)");
    }

    @Test
    void everySeriesSkippedForTheEnvironmentFailsNamingTheFieldsAndHowToAcceptThem() {
        GateReport r = Gate.create().baseline(baseline(metrics("tcp4_mbps", "Mbit/s", 100))).environment(OTHER_KERNEL)
                .run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 100)));
        assertThat(r.verdicts()).filteredOn(v -> v.kind() == Verdict.Kind.INCONCLUSIVE).hasSize(1);
        assertThat(gateVerdict(r).reason()).isEqualTo("compared nothing against the baseline: the environment differs"
                + " (kernel 'Linux 6.1.0-18-amd64' vs 'Linux 6.12.0'), so every comparison is inconclusive; if the"
                + " difference does not matter, accept it with --allow-env-mismatch (Gate.allowEnvironmentMismatch(true)),"
                + " or save a baseline in this environment. The baseline had 1 series (tcp4_mbps@local); this run"
                + " produced 1 series (tcp4_mbps@local)");
        // accepted, the same run compares and passes
        assertThat(Gate.create().baseline(baseline(metrics("tcp4_mbps", "Mbit/s", 100))).environment(OTHER_KERNEL)
                .allowEnvironmentMismatch(true).run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 100)))
                .exitCode()).isZero();
    }

    @Test
    void everySeriesInconclusiveFails() {
        String p = GateTest.policy("{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"min_runs\":3}");
        GateReport r = Gate.create().baseline(baseline(p + metrics("tcp4_mbps", "Mbit/s", 100, 101, 102)))
                .run(MetricReaders.read("cur.log", p + metrics("tcp4_mbps", "Mbit/s", 100)));
        assertThat(r.verdicts()).filteredOn(v -> v.kind() == Verdict.Kind.INCONCLUSIVE).hasSize(1);
        assertThat(gateVerdict(r).reason()).startsWith("compared nothing against the baseline: 1 inconclusive.");
    }

    @Test
    void everySeriesSkippedByItsTestFails() {
        GateReport r = Gate.create().baseline(baseline("ZPERF-RESULT udp4_frag_mbps=800\n"))
                .run(MetricReaders.read("cur.log", "KTAP version 1\n1..1\nok 1 udp4_frag # SKIP no fragmentation here\n"));
        assertThat(gateVerdict(r).reason()).isEqualTo("compared nothing against the baseline: no series is in both; 1 skip."
                + " The baseline had 1 series (udp4_frag_mbps@local); this run produced no series");
    }

    @Test
    void oneComparedSeriesBesideSkippedOnesPasses() {
        GateReport r = Gate.create().baseline(baseline("ZPERF-RESULT udp4_frag_mbps=800\nZPERF-RESULT udp4_mbps=1000\n"))
                .run(MetricReaders.read("cur.log", "KTAP version 1\n1..1\nok 1 udp4_frag # SKIP no fragmentation here\n"
                        + "ZPERF-RESULT udp4_mbps=1000\n"));
        assertThat(r.verdicts()).extracting(Verdict::kind).containsExactly(Verdict.Kind.PASS, Verdict.Kind.SKIP);
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void withoutABaselineNothingIsToCompare() {
        GateReport r = Gate.create().run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 100)));
        assertThat(r.verdicts()).extracting(v -> v.key().display()).containsExactly("tcp4_mbps@local");
        assertThat(r.exitCode()).isZero();
    }
}
