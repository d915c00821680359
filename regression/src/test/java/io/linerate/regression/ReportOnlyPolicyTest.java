package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.regression.internal.PolicyParser;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A policy without {@code regression} (kperf's {@code {"name":"tcp.retransmits","summarize":"max"}})
 * only reports its metric: it is read from a policy file and from a log, its metric is in every
 * report, and no change of it fails the gate. A bad {@code regression} is still refused.
 */
class ReportOnlyPolicyTest {
    private static final String KPERF = "{\"name\":\"tcp.retransmits\",\"summarize\":\"max\"}";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Three runs of three samples each; {@code summarize: max} keeps each run's largest. */
    private static String retransmits(long... samples) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < samples.length; i++) {
            sb.append(String.format(java.util.Locale.ROOT, "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp.retransmits\","
                    + "\"run\":\"r%d\",\"shape\":\"scalar\",\"time\":%d,\"value\":%d}%n", i / 3 + 1, i % 3 + 1, samples[i]));
        }
        return sb.toString();
    }

    // run maxima 3, 4, 2: p50 (nearest rank, 2nd of 3) is 3
    private static final String BASE = retransmits(1, 3, 0, 4, 2, 2, 0, 2, 1);
    // run maxima 5000, 4000, 9000: p50 is 5000, more than a thousand times the baseline's
    private static final String WORSE = retransmits(10, 5000, 20, 4000, 0, 3, 7, 9000, 8);

    private static GateReport gate(Gate g, String currentLog) {
        return g.baseline(GateTest.baseline(BASE)).environment(GateTest.ENV).run(MetricReaders.read("cur.log", currentLog));
    }

    @Test
    void kperfsPolicyParsesFromAFileAndFromALogAsAdvisoryAndReportOnly() {
        Policy fromFile = Policies.parseFile("kperf.json", "[" + KPERF + "]").filePolicies().get(0);
        MetricSet log = MetricReaders.read("run.log", GateTest.policy(KPERF) + WORSE);
        assertThat(log.errors()).isEmpty();
        assertThat(log.warnings()).isEmpty();
        Policy embedded = log.embeddedPolicies().get(0);
        for (Policy p : List.of(fromFile, embedded)) {
            assertThat(p.name()).isEqualTo("tcp.retransmits");
            assertThat(p.regression()).isEmpty();
            assertThat(p.reportOnly()).isTrue();
            assertThat(p.advisory()).isTrue();
            assertThat(p.summarize()).isEqualTo(Policy.Summarize.MAX);
            assertThat(p.compare().label()).isEqualTo("p50");
            assertThatThrownBy(p::better).isInstanceOf(IllegalStateException.class)
                    .hasMessage("policy tcp.retransmits only reports: it has no regression rule");
        }
        assertThat(fromFile.source()).isEqualTo(Policy.Source.FILE);
        assertThat(embedded.source()).isEqualTo(Policy.Source.EMBEDDED);
    }

    @Test
    void aThousandfoldRiseIsReportedAndDoesNotFailTheGate() {
        GateReport r = gate(Gate.create(), GateTest.policy(KPERF) + WORSE);
        Verdict v = GateTest.only(r);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.failing()).isFalse();
        assertThat(v.baseline()).isEqualTo(3.0);
        assertThat(v.current()).isEqualTo(5000.0);
        assertThat(v.change()).isEqualTo((5000.0 - 3) / 3);
        assertThat(v.baselineRuns()).isEqualTo(3);
        assertThat(v.currentRuns()).isEqualTo(3);
        assertThat(v.tolerance()).isNull();
        assertThat(v.method()).isEmpty();
        assertThat(v.policySource()).isEqualTo("embedded");
        assertThat(v.reason()).startsWith("reported only");
        assertThat(r.exitCode()).isZero();
        // nothing here is judged, so no warning about too few runs to tell noise from change either
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void withoutThePolicyTheSameRiseFailsByTheDefaultOfItsName() {
        // "retrans" in the name makes the default lower-better with 5 %: the policy is what stops the failure
        Verdict v = GateTest.only(gate(Gate.create(), WORSE));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(v.failing()).isTrue();
    }

    @Test
    void aPolicyFileBeatsTheDefaultAndTheToleranceFlagLeavesItReportOnly() {
        GateReport r = gate(Gate.create().policies(Policies.parseFile("kperf.json", "[" + KPERF + "]")).tolerance(0.0), WORSE);
        Verdict v = GateTest.only(r);
        assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(v.policySource()).isEqualTo("file");
        assertThat(r.exitCode()).isZero();
    }

    @Test
    void theReportsCarryTheMetricAsTheyCarryEveryOther() throws Exception {
        GateReport r = gate(Gate.create(), GateTest.policy(KPERF) + WORSE);
        String reason = "reported only: the policy has no regression rule (advisory), so no change fails";
        assertThat(Reports.ktap(r)).isEqualTo("KTAP version 1\n1..1\n"
                + "# tcp.retransmits@local: pass +166566.7% (base 3, cur 5000), policy embedded: " + reason + "\n"
                + "ok 1 tcp.retransmits@local\n"
                + "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0\n");
        JsonNode json = JSON.readTree(Reports.json(r));
        assertThat(json.get("exit_code").asInt()).isZero();
        JsonNode v = json.get("verdicts").get(0);
        assertThat(v.get("name").asText()).isEqualTo("tcp.retransmits");
        assertThat(v.get("verdict").asText()).isEqualTo("pass");
        assertThat(v.get("failing").asBoolean()).isFalse();
        assertThat(v.get("baseline").asDouble()).isEqualTo(3.0);
        assertThat(v.get("current").asDouble()).isEqualTo(5000.0);
        assertThat(v.get("tolerance").isNull()).isTrue();
        assertThat(v.get("compare").asText()).isEqualTo("p50");
        assertThat(v.get("method").asText()).isEmpty();
        assertThat(v.get("reason").asText()).isEqualTo(reason);
        assertThat(Reports.markdown(r)).contains("| `tcp.retransmits@local` | pass | 3 | 5000 | +166566.7% |  |  | embedded | "
                + reason + " |");
    }

    @Test
    void aBaselineStoresThePolicyAndReadsItBackReportOnly() {
        MetricSet current = MetricReaders.read("run.log", GateTest.policy(KPERF) + WORSE);
        Baseline saved = Gate.create().baselineOf(current, GateTest.ENV, GateTest.CREATED);
        Baseline read = Baseline.parse("base.json", saved.toJson());
        Policy back = read.series().get(0).policy();
        assertThat(back.reportOnly()).isTrue();
        assertThat(back.summarize()).isEqualTo(Policy.Summarize.MAX);
        assertThat(back.withSource(Policy.Source.EMBEDDED)).isEqualTo(current.embeddedPolicies().get(0));
        // a later gate without the policy line judges the series by the policy the baseline stored
        GateReport r = Gate.create().baseline(read).environment(GateTest.ENV).run(MetricReaders.read("cur.log", WORSE));
        assertThat(GateTest.only(r).failing()).isFalse();
        assertThat(GateTest.only(r).policySource()).isEqualTo("baseline");
    }

    @Test
    void aBadRegressionIsStillRefusedNamingIt() {
        assertThatThrownBy(() -> parse("{\"name\":\"tcp.retransmits\",\"regression\":\"lower\",\"summarize\":\"max\"}", false))
                .hasMessage("policy tcp.retransmits: regression \"lower\" is not allowed; allowed: an object with better, "
                        + "compare and relative_tolerance, or no regression for a policy that only reports");
        assertThatThrownBy(() -> parse("{\"name\":\"tcp.retransmits\",\"regression\":null,\"summarize\":\"max\"}", true))
                .hasMessageContaining("regression null is not allowed");
        assertThatThrownBy(() -> parse("{\"name\":\"tcp.retransmits\",\"regression\":{\"better\":\"down\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"max\"}", true))
                .hasMessage("policy tcp.retransmits: regression.better 'down' is not allowed; allowed: higher, lower");
        assertThatThrownBy(() -> parse("{\"name\":\"tcp.retransmits\",\"regression\":{\"better\":\"lower\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"max\"}", true))
                .hasMessage("policy tcp.retransmits: compare is missing");
    }

    @Test
    void besideNoRegressionAMisspeltKeyAToleranceOrAdvisoryFalseIsRefusedEvenInALog() {
        // embedded lines only warn of unknown keys; a misspelt regression would silently stop gating
        assertThatThrownBy(() -> parse("{\"name\":\"a_mbps\",\"regresion\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}", false))
                .hasMessageStartingWith("policy a_mbps: 'regression' object is missing; unknown key regresion: ");
        assertThatThrownBy(() -> parse("{\"name\":\"a_mbps\",\"relative_tolerance\":0.05,\"summarize\":\"max\"}", false))
                .hasMessage("policy a_mbps: 'regression' object is missing, so relative_tolerance 0.05 judges nothing; "
                        + "allowed: relative_tolerance with a 'regression' object (better, compare), or neither for a "
                        + "policy that only reports");
        assertThatThrownBy(() -> parse("{\"name\":\"a_mbps\",\"advisory\":false,\"summarize\":\"max\"}", false))
                .hasMessageContaining("'regression' object is missing, so it only reports and cannot fail the gate");
        assertThat(parse("{\"name\":\"a_mbps\",\"advisory\":true,\"summarize\":\"max\"}", true).reportOnly()).isTrue();
    }

    private static Policy parse(String json, boolean strict) {
        try {
            return PolicyParser.parse(JSON.readTree(json), strict, Policy.Source.FILE, new ArrayList<>());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new AssertionError(e);
        }
    }
}
