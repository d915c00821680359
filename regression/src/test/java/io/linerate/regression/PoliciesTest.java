package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Better;
import java.util.List;
import org.junit.jupiter.api.Test;

class PoliciesTest {
    private static final String EMBEDDED = "# ktap-metric-policy-json: {\"name\":\"udp4_mbps\",\"regression\":"
            + "{\"better\":\"higher\",\"compare\":\"p90\",\"relative_tolerance\":0.1},\"summarize\":\"mean\"}\n"
            + "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp4_mbps\",\"shape\":\"scalar\",\"time\":1,\"value\":3}\n";

    @Test
    void defaultsByNameWordsThenUnit() {
        // docs/metrics.md section 3, by hand: bad words first, then the unit, otherwise no default
        assertThat(Policies.defaultFor("udp4_mbps", "Mbit/s").orElseThrow().better()).isEqualTo(Better.HIGHER);
        assertThat(Policies.defaultFor("Throughput", "Gbit/s").orElseThrow().better()).isEqualTo(Better.HIGHER);
        assertThat(Policies.defaultFor("udp4_jitter_ms", "ms").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("udp4_lost_pct", "%").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("half_rtt", "").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("rtt_ns", "ns").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("frame_loss_rate", "frames/s").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("tcp_retrans_rate", "").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("drop_rate", "frames/s").orElseThrow().better()).isEqualTo(Better.LOWER);
        assertThat(Policies.defaultFor("tx_rate", "")).isEmpty();
        assertThat(Policies.defaultFor("tcp4_mbps", "")).isEmpty();
        assertThat(Policies.defaultFor("context_switches", "")).isEmpty();
        Policy d = Policies.defaultFor("tcp4_mbps", "Mbit/s").orElseThrow();
        assertThat(d.relativeTolerance()).isEqualTo(0.05);
        assertThat(d.absoluteTolerance()).isEqualTo(0.0);
        assertThat(d.compare().label()).isEqualTo("p50");
        assertThat(d.summarize()).isEqualTo(Policy.Summarize.DISTRIBUTION);
        assertThat(d.source()).isEqualTo(Policy.Source.DEFAULT);
        assertThat(d.advisory()).isFalse();
        // jitter is advisory; loss in % is judged in percentage points: relative 0, absolute 1
        assertThat(Policies.defaultFor("udp4_jitter_ms", "ms").orElseThrow().advisory()).isTrue();
        Policy loss = Policies.defaultFor("udp4_lost_pct", "%").orElseThrow();
        assertThat(loss.advisory()).isFalse();
        assertThat(loss.relativeTolerance()).isEqualTo(0.0);
        assertThat(loss.absoluteTolerance()).isEqualTo(1.0);
        assertThat(Policies.defaultFor("raw_lost_frames", "frames").orElseThrow().absoluteTolerance()).isEqualTo(0.0);
    }

    @Test
    void fileBeatsEmbeddedWhichBeatsDefaultsAndExactBeatsPrefix() {
        MetricSet s = MetricReaders.read("run.log", EMBEDDED);
        Policies none = Policies.none();
        assertThat(none.resolve("udp4_mbps", "Mbit/s", s.embeddedPolicies(), null).orElseThrow().source())
                .isEqualTo(Policy.Source.EMBEDDED);
        assertThat(none.resolve("udp4_mbps", "Mbit/s", s.embeddedPolicies(), null).orElseThrow().compare().label())
                .isEqualTo("p90");
        assertThat(none.resolve("tcp4_mbps", "Mbit/s", s.embeddedPolicies(), null).orElseThrow().source())
                .isEqualTo(Policy.Source.DEFAULT);
        Policy stored = Policies.defaultFor("tcp4_mbps", "Mbit/s").orElseThrow().withSource(Policy.Source.BASELINE);
        assertThat(none.resolve("tcp4_mbps", "Mbit/s", s.embeddedPolicies(), stored).orElseThrow().source())
                .isEqualTo(Policy.Source.BASELINE);
        assertThat(none.resolve("udp4_mbps", "Mbit/s", s.embeddedPolicies(), stored).orElseThrow().source())
                .isEqualTo(Policy.Source.EMBEDDED);
        Policies file = Policies.parseFile("policies.json", """
                {"format":"linerate-policies","version":1,"policies":[
                  {"name":"udp*","regression":{"better":"higher","compare":"mean","relative_tolerance":0.02},"summarize":"distribution"},
                  {"name":"udp4_*","regression":{"better":"higher","compare":"min","relative_tolerance":0.03},"summarize":"distribution"}
                ]}""");
        Policy p = file.resolve("udp4_mbps", "Mbit/s", s.embeddedPolicies(), stored).orElseThrow();
        assertThat(p.source()).isEqualTo(Policy.Source.FILE);
        assertThat(p.name()).isEqualTo("udp4_*");
        assertThat(file.resolve("udp6_mbps", "Mbit/s", List.of(), null).orElseThrow().name()).isEqualTo("udp*");
    }

    @Test
    void aMisspelledKeyInAPolicyFileIsAnError() {
        assertThatThrownBy(() -> Policies.parseFile("policies.json", """
                [{"name":"udp4_mbps","regression":{"better":"higher","compare":"p50","relative_tolerence":0.05},
                  "summarize":"distribution"}]"""))
                .hasMessageContaining("policy file policies.json, policy #1")
                .hasMessageContaining("unknown key regression.relative_tolerence");
        assertThatThrownBy(() -> Policies.parseFile("policies.json", """
                {"format":"linerate-policies","version":1,"polices":[]}"""))
                .hasMessageContaining("unknown key polices");
    }

    @Test
    void badValuesNameTheValueAndTheAllowedRange() {
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":-0.05},"summarize":"distribution"}]"""))
                .hasMessageContaining("relative_tolerance -0.05 is not allowed; allowed: 0 to 1 (a fraction: 0.05 = 5%)");
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p0","relative_tolerance":0.05},"summarize":"distribution"}]"""))
                .hasMessageContaining("compare 'p0' is not allowed");
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"median"}]"""))
                .hasMessageContaining("summarize 'median' is not allowed; allowed: distribution, max, min, mean, last, sum");
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                {"format":"linerate-policies","version":2,"policies":[]}"""))
                .hasMessageContaining("has version 2; this linerate reads version 1");
    }

    @Test
    void minRunsThatCanNeverReachAlphaIsRefusedAtLoadTime() {
        // with 4 runs per side the smallest one-sided exact p-value is 1/C(8,4) = 1/70 = 0.0143 > 0.01
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},
                  "summarize":"mean","method":"mann_whitney","alpha":0.01,"min_runs":4}]"""))
                .hasMessageContaining("min_runs 4 can never reach alpha 0.01")
                .hasMessageContaining("0.01429")
                .hasMessageContaining("allowed: min_runs >= 5");
        Policies ok = Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},
                  "summarize":"mean","method":"mann_whitney","alpha":0.05,"min_runs":4}]""");
        assertThat(ok.filePolicies().get(0).minRuns()).isEqualTo(4);
        Policies defaulted = Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},
                  "summarize":"mean","method":"mann_whitney"}]""");
        assertThat(defaulted.filePolicies().get(0).minRuns()).isEqualTo(5);
    }

    @Test
    void aFileToleranceOutsideZeroToOneIsRefusedNamingTheValue() {
        // 5 would mean 500 %: a 90 % drop (cur = 0.1 base > base (1 - 5)) would pass
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":5},"summarize":"distribution"}]"""))
                .hasMessage("policy file p.json, policy #1: policy a_mbps: relative_tolerance 5 is not allowed;"
                        + " allowed: 0 to 1 (a fraction: 0.05 = 5%)");
        assertThatThrownBy(() -> Policies.parseFile("p.json", """
                [{"name":"a_mbps","relative_tolerance":1.0001,"regression":{"better":"higher","compare":"p50"},"summarize":"distribution"}]"""))
                .hasMessageContaining("relative_tolerance 1.0001 is not allowed; allowed: 0 to 1");
        // both ends are allowed
        for (String tol : new String[] {"0", "1"}) {
            Policies p = Policies.parseFile("p.json", "[{\"name\":\"a_mbps\",\"regression\":{\"better\":\"higher\","
                    + "\"compare\":\"p50\",\"relative_tolerance\":" + tol + "},\"summarize\":\"distribution\"}]");
            assertThat(p.filePolicies().get(0).relativeTolerance()).isEqualTo(Double.parseDouble(tol));
        }
    }

    @Test
    void anEmbeddedToleranceAboveOneIsAWarningAndAnUnknownKeyToo() {
        MetricSet s = MetricReaders.read("run.log", "# ktap-metric-policy-json: {\"name\":\"a_mbps\",\"regression\":"
                + "{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":5},\"summarize\":\"distribution\"}\n");
        assertThat(s.embeddedPolicies()).singleElement().satisfies(p -> assertThat(p.relativeTolerance()).isEqualTo(5));
        // 5 as a percentage is 500 %
        assertThat(s.warnings()).extracting(Problem::where, Problem::message).containsExactly(
                org.assertj.core.api.Assertions.tuple("run.log:1", "policy a_mbps: relative_tolerance 5 is outside 0 to 1"
                        + " (a fraction: 0.05 = 5%), so it lets the metric worsen by 500% before it regresses"));
    }

    @Test
    void withoutAMethodAPolicyUsesAuto() {
        Policies p = Policies.parseFile("p.json", """
                [{"name":"a_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"},
                 {"name":"b_mbps","regression":{"better":"higher","compare":"p50","relative_tolerance":0.05},"summarize":"distribution",
                  "method":"threshold"}]""");
        assertThat(p.filePolicies()).extracting(Policy::method).containsExactly(Policy.Method.AUTO, Policy.Method.THRESHOLD);
        assertThat(p.filePolicies().get(0).minRuns()).isEqualTo(1);
        assertThat(Policies.defaultFor("tcp4_mbps", "Mbit/s").orElseThrow().method()).isEqualTo(Policy.Method.AUTO);
    }
}
