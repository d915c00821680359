package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.Locale;
import org.junit.jupiter.api.Test;

class GateTest {
    static final Environment ENV = new Environment("Linux 6.1.0-18-amd64", "Example CPU @ 3.00GHz",
            "OpenJDK 64-Bit Server VM 17.0.15", "nio", "0.1.0-SNAPSHOT");
    static final Instant CREATED = Instant.parse("2026-01-05T10:00:00Z");

    static String metrics(String name, String unit, double... values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            sb.append(String.format(Locale.ROOT,
                    "# ktap-metric-json: {\"host\":\"local\",\"name\":\"%s\",\"shape\":\"scalar\",\"time\":%d,\"unit\":\"%s\",\"value\":%s}%n",
                    name, i + 1, unit, Double.toString(values[i])));
        }
        return sb.toString();
    }

    static String policy(String json) {
        return "# ktap-metric-policy-json: " + json + "\n";
    }

    static Baseline baseline(String log) {
        return Baseline.of(MetricReaders.read("base.log", log), ENV, CREATED);
    }

    static Verdict only(GateReport r) {
        assertThat(r.verdicts()).hasSize(1);
        return r.verdicts().get(0);
    }

    static Verdict gate(String baseLog, String currentLog) {
        return only(Gate.create().baseline(baseline(baseLog)).environment(ENV).run(MetricReaders.read("cur.log", currentLog)));
    }

    @Test
    void higherBetterAtTheToleranceBoundary() {
        String base = metrics("tcp4_mbps", "Mbit/s", 100);
        assertThat(gate(base, metrics("tcp4_mbps", "Mbit/s", 95)).kind()).isEqualTo(Verdict.Kind.PASS);
        Verdict r = gate(base, metrics("tcp4_mbps", "Mbit/s", 94.99));
        assertThat(r.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(r.failing()).isTrue();
        assertThat(r.change()).isCloseTo(-0.0501, within(1e-12));
        assertThat(r.baseline()).isEqualTo(100);
        assertThat(r.current()).isEqualTo(94.99);
        assertThat(r.policySource()).isEqualTo("default");
        assertThat(gate(base, metrics("tcp4_mbps", "Mbit/s", 105)).kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(gate(base, metrics("tcp4_mbps", "Mbit/s", 105.01)).kind()).isEqualTo(Verdict.Kind.IMPROVEMENT);
    }

    @Test
    void lowerBetterAtTheToleranceBoundary() {
        String base = metrics("latency_p50", "ms", 10);
        assertThat(gate(base, metrics("latency_p50", "ms", 10.5)).kind()).isEqualTo(Verdict.Kind.PASS);
        Verdict r = gate(base, metrics("latency_p50", "ms", 10.51));
        assertThat(r.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(r.change()).isCloseTo(0.051, within(1e-12));
        assertThat(gate(base, metrics("latency_p50", "ms", 9.5)).kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(gate(base, metrics("latency_p50", "ms", 9.49)).kind()).isEqualTo(Verdict.Kind.IMPROVEMENT);
    }

    @Test
    void badWordsInTheNameMakeARiseARegressionWhateverTheUnit() {
        // 1 -> 5 and 10 -> 50 are each (5 - 1) / 1 = +400 %; retrans and drop are bad words, so lower is better
        Verdict retrans = gate(metrics("tcp_retrans_rate", "", 1), metrics("tcp_retrans_rate", "", 5));
        assertThat(retrans.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(retrans.change()).isEqualTo(4.0);
        assertThat(retrans.policySource()).isEqualTo("default");
        Verdict drop = gate(metrics("drop_rate", "frames/s", 10), metrics("drop_rate", "frames/s", 50));
        assertThat(drop.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(drop.change()).isEqualTo(4.0);
        GateReport r = Gate.create().baseline(baseline(metrics("drop_rate", "frames/s", 10)))
                .run(MetricReaders.read("cur.log", metrics("drop_rate", "frames/s", 50)));
        assertThat(Reports.ktap(r)).contains("not ok 1 drop_rate@local # regressed +400.0% (base 10, cur 50 frames/s, tol 5%)");
        assertThat(r.exitCode()).isEqualTo(1);
        // the same figures in frames/s without a bad word are throughput: 10 -> 50 is an improvement
        assertThat(gate(metrics("rx_rate", "frames/s", 10), metrics("rx_rate", "frames/s", 50)).kind())
                .isEqualTo(Verdict.Kind.IMPROVEMENT);
    }

    @Test
    void lossInPercentIsJudgedInPercentagePointsAndNeverPrintsAnInfinity() {
        String base = metrics("udp4_lost_pct", "%", 0);
        // 0 % -> 0.1 %: 0.1 points, within the default 1 point; no relative change of a 0 baseline
        GateReport small = Gate.create().baseline(baseline(base)).run(MetricReaders.read("cur.log", metrics("udp4_lost_pct", "%", 0.1)));
        Verdict v = only(small);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.change()).isNull();
        assertThat(v.absoluteTolerance()).isEqualTo(1.0);
        assertThat(Reports.ktap(small)).contains("# udp4_lost_pct@local: pass +0.1 pp (base 0, cur 0.1 %, tol 0%, abs 1 %)");
        for (String out : new String[] {Reports.ktap(small), Reports.json(small), Reports.markdown(small), Reports.svg(small, "t")}) {
            assertThat(out).doesNotContain("inf").doesNotContain("Infinity").doesNotContain("NaN");
        }
        // 0 % -> 1.5 %: 1.5 points, beyond 1
        Verdict big = gate(base, metrics("udp4_lost_pct", "%", 1.5));
        assertThat(big.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        // 10 % -> 10.9 %: 0.9 points, within; 10 % -> 11.2 %: 1.2 points, beyond (relative tolerance 0)
        assertThat(gate(metrics("udp4_lost_pct", "%", 10), metrics("udp4_lost_pct", "%", 10.9)).kind()).isEqualTo(Verdict.Kind.PASS);
        Verdict rel = gate(metrics("udp4_lost_pct", "%", 10), metrics("udp4_lost_pct", "%", 11.2));
        assertThat(rel.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(rel.change()).isCloseTo(0.12, within(1e-12));
    }

    @Test
    void theRelativeChangeIsNeverInfinite() {
        // (3 - 2) / 2 = 0.5; a 0 baseline has none; (1 - 4.9e-324) / 4.9e-324 overflows to infinity: none
        assertThat(Gate.relativeChange(2, 3)).isEqualTo(0.5);
        assertThat(Gate.relativeChange(0, 3)).isNull();
        assertThat(Gate.relativeChange(Double.MIN_VALUE, 1)).isNull();
    }

    @Test
    void absoluteToleranceMustAlsoBeExceeded() {
        String p = policy("{\"name\":\"rtt_us\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.05},"
                + "\"summarize\":\"distribution\",\"absolute_tolerance\":2}");
        String base = p + metrics("rtt_us", "us", 10);
        Verdict within = gate(base, p + metrics("rtt_us", "us", 11.5));
        assertThat(within.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(within.policySource()).isEqualTo("embedded");
        assertThat(gate(base, p + metrics("rtt_us", "us", 12.5)).kind()).isEqualTo(Verdict.Kind.REGRESSION);
    }

    @Test
    void toleranceFlagReplacesThePolicyTolerance() {
        Baseline b = baseline(metrics("tcp4_mbps", "Mbit/s", 100));
        MetricSet cur = MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 94.99));
        Verdict v = only(Gate.create().baseline(b).tolerance(0.10).run(cur));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.tolerance()).isEqualTo(0.10);
        assertThatThrownBy(() -> Gate.create().tolerance(-0.01))
                .hasMessage("tolerance -1% is not allowed; allowed: 0 to 100 percent");
    }

    @Test
    void distributionComparesThePercentileOfAllRuns() {
        String base = metrics("udp4_mbps", "Mbit/s", 90, 100, 110, 95, 105);
        // p50 by nearest rank of {90, 95, 100, 105, 110} is 100; of {80, 94, 96, 97, 120} is 96
        Verdict v = gate(base, metrics("udp4_mbps", "Mbit/s", 80, 120, 94, 96, 97));
        assertThat(v.baseline()).isEqualTo(100);
        assertThat(v.current()).isEqualTo(96);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.currentRuns()).isEqualTo(5);
    }

    @Test
    void summarizeMeanGivesOnePointPerRunAndOmitFirstDropsWarmup() {
        String p = policy("{\"name\":\"tput_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"min\",\"relative_tolerance\":0.05},"
                + "\"summarize\":\"mean\",\"omit_first_s\":1}");
        MetricSet cur = new MetricSet();
        // run a: times 1,2,3 -> keeps 2,3 -> mean (100 + 110) / 2 = 105; run b: keeps 90, 96 -> 93
        cur.addAll(MetricReaders.read("a.log", p + metrics("tput_mbps", "Mbit/s", 1, 100, 110)));
        cur.addAll(MetricReaders.read("b.log", p + metrics("tput_mbps", "Mbit/s", 1000, 90, 96)));
        Verdict v = only(Gate.create().run(cur));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.current()).isEqualTo(93);
        assertThat(v.currentRuns()).isEqualTo(2);
        assertThat(v.reason()).isEqualTo("no baseline");
    }

    @Test
    void missingFailsUnlessThePolicySaysSkip() {
        Baseline b = baseline(metrics("tcp4_mbps", "Mbit/s", 100) + metrics("udp4_mbps", "Mbit/s", 50));
        GateReport r = Gate.create().baseline(b).run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 100)));
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind, Verdict::failing).containsExactly(
                org.assertj.core.api.Assertions.tuple("tcp4_mbps@local", Verdict.Kind.PASS, false),
                org.assertj.core.api.Assertions.tuple("udp4_mbps@local", Verdict.Kind.MISSING, true));
        assertThat(r.exitCode()).isEqualTo(1);
        String skip = policy("{\"name\":\"udp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},"
                + "\"summarize\":\"distribution\",\"on_missing\":\"skip\"}");
        GateReport s = Gate.create().baseline(b).run(MetricReaders.read("cur.log", skip + metrics("tcp4_mbps", "Mbit/s", 100)));
        assertThat(s.verdicts().get(1).kind()).isEqualTo(Verdict.Kind.MISSING);
        assertThat(s.verdicts().get(1).failing()).isFalse();
        assertThat(s.exitCode()).isZero();
    }

    @Test
    void anotherEnvironmentIsInconclusiveUnlessAllowed() {
        Baseline b = baseline(metrics("tcp4_mbps", "Mbit/s", 100));
        Environment other = new Environment("Linux 6.12.0", ENV.cpu(), ENV.jvm(), "nio", "0.2.0");
        MetricSet cur = MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 50));
        Verdict v = only(Gate.create().baseline(b).environment(other).run(cur));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.INCONCLUSIVE);
        assertThat(v.failing()).isFalse();
        assertThat(v.reason()).isEqualTo("environment differs: kernel 'Linux 6.1.0-18-amd64' vs 'Linux 6.12.0'");
        assertThat(only(Gate.create().baseline(b).environment(other).allowEnvironmentMismatch(true).run(cur)).kind())
                .isEqualTo(Verdict.Kind.REGRESSION);
    }

    @Test
    void unitChangesAndBadLinesAreErrorsThatFail() {
        GateReport r = Gate.create().run(TestFiles.read("broken.log"));
        assertThat(r.verdicts()).extracting(v -> v.key().display(), Verdict::kind).containsExactly(
                org.assertj.core.api.Assertions.tuple("broken/udp4_mbps@local", Verdict.Kind.PASS),
                org.assertj.core.api.Assertions.tuple("broken/udp4_frag_mbps@local", Verdict.Kind.ERROR),
                org.assertj.core.api.Assertions.tuple("tcp6_mbps@local", Verdict.Kind.ERROR),
                org.assertj.core.api.Assertions.tuple("udp6_mbps@local", Verdict.Kind.ERROR),
                org.assertj.core.api.Assertions.tuple("tcp4_nodelay_mbps@local", Verdict.Kind.ERROR),
                org.assertj.core.api.Assertions.tuple("broken.log:3@input", Verdict.Kind.ERROR),
                org.assertj.core.api.Assertions.tuple("broken.log:4@input", Verdict.Kind.ERROR));
        assertThat(r.verdicts().get(1).reason())
                .isEqualTo("unit changes within the series: 'Mbit/s' at broken.log:7, 'Gbit/s' at broken.log:8");
        assertThat(r.verdicts().get(2).reason()).startsWith("broken.log:5: metric tcp6_mbps: shape \"histogram\"");
        assertThat(r.exitCode()).isEqualTo(1);
    }

    @Test
    void aBaselineWithAnotherUnitIsAnError() {
        Verdict v = gate(metrics("tcp4_mbps", "Mbit/s", 100), metrics("tcp4_mbps", "Gbit/s", 0.1));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.ERROR);
        assertThat(v.reason()).isEqualTo("unit 'Gbit/s' differs from the baseline's 'Mbit/s'");
    }

    @Test
    void aNameWithoutDirectionAndWithoutPolicyIsAnError() {
        Verdict v = only(Gate.create().run(MetricReaders.read("cur.log", metrics("context_switches", "", 3))));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.ERROR);
        assertThat(v.policySource()).isEqualTo("none");
        assertThat(v.reason()).startsWith("no policy, direction unknown: context_switches has no unit");
        assertThat(Reports.ktap(Gate.create().run(MetricReaders.read("cur.log", metrics("context_switches", "", 3)))))
                .contains("not ok 1 context_switches@local # error: no policy, direction unknown");
        // a name that once implied a direction by a substring ("rate", "mbps") no longer does without a unit
        assertThat(only(Gate.create().run(MetricReaders.read("cur.log", metrics("tx_rate", "", 3)))).kind())
                .isEqualTo(Verdict.Kind.ERROR);
    }

    static final String MW = policy("{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
            + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"method\":\"mann_whitney\",\"alpha\":0.01}");

    @Test
    void mannWhitneyNeedsSignificanceAndTheToleranceAndEnoughRuns() {
        String base = MW + metrics("tcp4_mbps", "Mbit/s", 100, 101, 102, 103, 104);
        Verdict r = gate(base, MW + metrics("tcp4_mbps", "Mbit/s", 90, 91, 92, 93, 94));
        assertThat(r.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(r.pValue()).isCloseTo(1.0 / 252, within(1e-12));
        assertThat(r.method()).isEqualTo("mann_whitney");
        // every current value below every base value (p = 1/252), but p50 only 3 % lower: within tolerance
        Verdict small = gate(base, MW + metrics("tcp4_mbps", "Mbit/s", 95, 96, 99, 99.5, 99.9));
        assertThat(small.kind()).isEqualTo(Verdict.Kind.UNCHANGED);
        Verdict few = gate(base, MW + metrics("tcp4_mbps", "Mbit/s", 90, 91, 92, 93));
        assertThat(few.kind()).isEqualTo(Verdict.Kind.INCONCLUSIVE);
        assertThat(few.reason()).isEqualTo("insufficient runs (base 5, cur 4, min_runs 5)");
    }

    @Test
    void bootstrapIsDeterministicAndJudgesTheRatio() {
        String p = policy("{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"mean\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"method\":\"bootstrap\",\"alpha\":0.05}");
        String base = p + metrics("tcp4_mbps", "Mbit/s", 100, 101, 102, 103, 104);
        // every resampled ratio lies in [80/104, 84/100] = [0.769, 0.84], all below 0.95
        Verdict r = gate(base, p + metrics("tcp4_mbps", "Mbit/s", 80, 81, 82, 83, 84));
        assertThat(r.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        // every resampled ratio lies in [100/104, 104/100], never below 0.95 nor above 1.05
        Verdict same = gate(base, p + metrics("tcp4_mbps", "Mbit/s", 100, 101, 102, 103, 104));
        assertThat(same.kind()).isEqualTo(Verdict.Kind.UNCHANGED);
        assertThat(gate(base, p + metrics("tcp4_mbps", "Mbit/s", 80, 81, 82, 83, 84)).reason()).isEqualTo(r.reason());
    }

    @Test
    void advisoryRegressionIsReportedButDoesNotFail() {
        String p = policy("{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"advisory\":true}");
        Verdict v = gate(p + metrics("tcp4_mbps", "Mbit/s", 100), p + metrics("tcp4_mbps", "Mbit/s", 50));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.ADVISORY_REGRESSION);
        assertThat(v.failing()).isFalse();
    }
}
