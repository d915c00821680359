package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Instant;
import java.util.Locale;
import java.util.List;
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

    /** One sample per value, each its own run ({@code "run":"r1"}, ...), as five repeats of one test give. */
    static String runs(String name, String unit, double... values) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < values.length; i++) {
            sb.append(String.format(Locale.ROOT,
                    "# ktap-metric-json: {\"host\":\"local\",\"name\":\"%s\",\"run\":\"r%d\",\"shape\":\"scalar\",\"time\":1,\"unit\":\"%s\",\"value\":%s}%n",
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

    /** @return the one series' verdict, beside the gate's own when it compared nothing ({@link NothingCompared}) */
    static Verdict only(GateReport r) {
        List<Verdict> series = r.verdicts().stream().filter(v -> !v.key().host().equals(NothingCompared.HOST)).toList();
        assertThat(series).hasSize(1);
        return series.get(0);
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
        assertThat(Comparison.relativeChange(2, 3)).isEqualTo(0.5);
        assertThat(Comparison.relativeChange(0, 3)).isNull();
        assertThat(Comparison.relativeChange(Double.MIN_VALUE, 1)).isNull();
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

    @Test
    void bimodalRepeatsOfUnchangedCodeAreNotARegressionByDefault() {
        // Five runs a side of a bimodal result. p50 by nearest rank (3rd of 5): base
        // {5000, 5000, 9000, 9000, 9000} -> 9000, current {5000, 5000, 5000, 9000, 9000} -> 5000, a
        // change of (5000 - 9000) / 9000 = -44.4 %, beyond the 5 % tolerance. The exact Mann-Whitney
        // p-value (StatisticsTest: k nines among the 5 base values, P(k >= 3) = 126/252) is 0.5, far
        // above alpha 0.01, so with 5 runs a side the default says unchanged, not regression.
        Verdict v = gate(runs("tcp4_mbps", "Mbit/s", 9000, 5000, 9000, 9000, 5000),
                runs("tcp4_mbps", "Mbit/s", 5000, 9000, 5000, 5000, 9000));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.UNCHANGED);
        assertThat(v.failing()).isFalse();
        assertThat(v.change()).isCloseTo(-4.0 / 9, within(1e-12));
        assertThat(v.method()).isEqualTo("mann_whitney");
        assertThat(v.pValue()).isCloseTo(126.0 / 252, within(1e-12));
        assertThat(v.reason()).isEqualTo("worse beyond the tolerance but not significantly (p=0.5000, alpha 0.01)");
        // The same runs the other way round: p50 5000 -> 9000 is +80 %, but the probability of a
        // current at least this far above the base is, by the same count mirrored, 126/252 (and of
        // one at least this far below, P(k >= 2) = 226/252): unchanged, not improvement, reporting the
        // p-value of the direction the change went, as its reason does.
        Verdict up = gate(runs("tcp4_mbps", "Mbit/s", 5000, 9000, 5000, 5000, 9000),
                runs("tcp4_mbps", "Mbit/s", 9000, 5000, 9000, 9000, 5000));
        assertThat(up.kind()).isEqualTo(Verdict.Kind.UNCHANGED);
        assertThat(up.change()).isCloseTo(0.8, within(1e-12));
        assertThat(up.pValue()).isCloseTo(126.0 / 252, within(1e-12));
        assertThat(up.reason()).isEqualTo("better beyond the tolerance but not significantly (p=0.5000, alpha 0.01)");
    }

    @Test
    void withFewerThanFiveRunsASideTheDefaultIsTheThreshold() {
        // 4 runs a side: p50 (2nd of 4) of {5000, 9000, 9000, 9000} is 9000, of {5000, 5000, 5000,
        // 9000} is 5000: -44.4 % beyond 5 %. Four runs cannot reach alpha 0.01 (1/C(8,4) = 1/70), so
        // the threshold alone decides, and a low-runs warning says so.
        GateReport r = Gate.create().baseline(baseline(runs("tcp4_mbps", "Mbit/s", 9000, 5000, 9000, 9000)))
                .environment(ENV).run(MetricReaders.read("cur.log", runs("tcp4_mbps", "Mbit/s", 5000, 9000, 5000, 5000)));
        Verdict v = only(r);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(v.method()).isEqualTo("threshold");
        assertThat(v.pValue()).isNull();
        assertThat(r.warnings()).extracting(Problem::where, Problem::message).containsExactly(
                org.assertj.core.api.Assertions.tuple("tcp4_mbps@local", "low runs: base 4, cur 4 data points; 5 per"
                        + " side are needed to tell noise from change (alpha 0.01)"));
    }

    @Test
    void aRealTwentyPercentDropWithFiveRunsASideIsARegression() {
        // p50 of {99, 100, 100, 101, 102} is 100, of {79, 80, 80, 81, 82} is 80: -20 %. Every current
        // run lies below every base run: exact p = 1/C(10,5) = 1/252 = 0.003968 < alpha 0.01.
        Verdict v = gate(runs("tcp4_mbps", "Mbit/s", 100, 101, 99, 100, 102),
                runs("tcp4_mbps", "Mbit/s", 80, 81, 79, 80, 82));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(v.failing()).isTrue();
        assertThat(v.baseline()).isEqualTo(100);
        assertThat(v.current()).isEqualTo(80);
        assertThat(v.change()).isCloseTo(-0.2, within(1e-12));
        assertThat(v.method()).isEqualTo("mann_whitney");
        assertThat(v.pValue()).isCloseTo(1.0 / 252, within(1e-12));
        assertThat(v.reason()).isEqualTo("worse beyond the tolerance (p=0.003968, alpha 0.01)");
        // within the tolerance with 5 runs a side is a plain pass: p50 100 -> 98 is -2 %
        Verdict ok = gate(runs("tcp4_mbps", "Mbit/s", 100, 101, 99, 100, 102),
                runs("tcp4_mbps", "Mbit/s", 98, 99, 97, 98, 100));
        assertThat(ok.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(ok.reason()).isEqualTo("within the tolerance");
    }

    @Test
    void oneSamplePerSeriesAgainstItselfWarnsOfLowRuns() {
        String log = metrics("tcp4_mbps", "Mbit/s", 9120.5) + metrics("udp4_mbps", "Mbit/s", 950);
        GateReport r = Gate.create().baseline(baseline(log)).environment(ENV).run(MetricReaders.read("cur.log", log));
        assertThat(r.verdicts()).extracting(Verdict::kind).containsOnly(Verdict.Kind.PASS);
        // one data point a side; the exact test needs 5 a side to reach alpha 0.01 (1/C(10,5) < 0.01 <= 1/C(8,4))
        assertThat(r.warnings()).extracting(Problem::where, Problem::message).containsExactly(
                org.assertj.core.api.Assertions.tuple("tcp4_mbps@local", "low runs: base 1, cur 1 data points; 5 per"
                        + " side are needed to tell noise from change (alpha 0.01)"),
                org.assertj.core.api.Assertions.tuple("udp4_mbps@local", "low runs: base 1, cur 1 data points; 5 per"
                        + " side are needed to tell noise from change (alpha 0.01)"));
        assertThat(Reports.ktap(r)).contains("# warning: tcp4_mbps@local: low runs: base 1, cur 1 data points;");
        assertThat(r.exitCode()).isZero();
        // five runs a side: no warning
        String five = runs("tcp4_mbps", "Mbit/s", 1, 2, 3, 4, 5);
        assertThat(Gate.create().baseline(baseline(five)).run(MetricReaders.read("cur.log", five)).warnings()).isEmpty();
        // without a baseline only the current count is named
        assertThat(Gate.create().run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 1))).warnings())
                .extracting(Problem::message).containsExactly("low runs: cur 1 data point; 5 per side are needed"
                        + " to tell noise from change (alpha 0.01)");
    }

    @Test
    void aFilePolicyThatMatchesNoMetricIsAWarningInEveryReport() {
        Policies file = Policies.parseFile("policies.json", """
                [{"name":"udp9_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"},
                 {"name":"tcp4_*","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"},
                 {"name":"rtt_*","regression":{"better":"lower","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"}]""");
        String five = runs("tcp4_mbps", "Mbit/s", 1, 2, 3, 4, 5);
        GateReport r = Gate.create().policies(file).baseline(baseline(five)).run(MetricReaders.read("cur.log", five));
        String expected = "policies udp9_mbps, rtt_* match no metric of the input or the baseline";
        assertThat(r.warnings()).extracting(Problem::where, Problem::message)
                .containsExactly(org.assertj.core.api.Assertions.tuple("policies.json", expected));
        assertThat(only(r).policySource()).isEqualTo("file");
        assertThat(Reports.ktap(r)).contains("# warning: policies.json: " + expected + "\n");
        assertThat(Reports.json(r)).contains("\"where\" : \"policies.json\"").contains("\"message\" : \"" + expected + "\"");
        assertThat(Reports.markdown(r)).contains("\nWarning: policies.json: " + expected + "\n");
        // a policy matching only a baselined series that is missing now is used, not unmatched
        Policies udp = Policies.parseFile("p.json", """
                [{"name":"udp4_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"}]""");
        GateReport m = Gate.create().policies(udp).baseline(baseline(runs("udp4_mbps", "Mbit/s", 1, 2, 3, 4, 5)))
                .run(MetricReaders.read("cur.log", five));
        assertThat(m.warnings()).extracting(Problem::where).doesNotContain("p.json");
    }

    @Test
    void aMissingSeriesNamesWhatTheRunProducedInstead() {
        // an IPv6 run against an IPv4 baseline
        GateReport r = Gate.create().baseline(baseline(runs("tcp4_mbps", "Mbit/s", 1, 2, 3, 4, 5)))
                .run(MetricReaders.read("cur.log", runs("tcp6_mbps", "Mbit/s", 1, 2, 3, 4, 5)
                        + runs("tcp6_nodelay_mbps", "Mbit/s", 1, 2, 3, 4, 5)));
        Verdict missing = r.verdicts().get(2);
        assertThat(missing.key().display()).isEqualTo("tcp4_mbps@local");
        assertThat(missing.kind()).isEqualTo(Verdict.Kind.MISSING);
        assertThat(missing.reason()).isEqualTo(
                "in the baseline, absent now; this run produced instead: tcp6_mbps@local, tcp6_nodelay_mbps@local");
        assertThat(Reports.ktap(r)).contains("not ok 3 tcp4_mbps@local # missing: in the baseline, absent now;"
                + " this run produced instead: tcp6_mbps@local, tcp6_nodelay_mbps@local\n");
        // when every current series is in the baseline there is nothing to name
        Baseline both = baseline(metrics("tcp4_mbps", "Mbit/s", 1) + metrics("udp4_mbps", "Mbit/s", 1));
        Verdict alone = Gate.create().baseline(both).run(MetricReaders.read("cur.log", metrics("tcp4_mbps", "Mbit/s", 1)))
                .verdicts().get(1);
        assertThat(alone.reason()).isEqualTo("in the baseline, absent now");
    }
}
