package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.linerate.core.Better;
import org.junit.jupiter.api.Test;

class BaselineTest {

    @Test
    void roundTripKeepsKeysUnitsRawSamplesTimesAndEnvironment() {
        Baseline b = Baseline.of(TestFiles.read("prefixes.log"), GateTest.ENV, GateTest.CREATED);
        Baseline back = Baseline.parse("baseline.json", b.toJson());
        assertThat(back.version()).isEqualTo(3);
        assertThat(back.created()).isEqualTo("2026-01-05T10:00:00Z");
        assertThat(back.environment()).isEqualTo(GateTest.ENV);
        // test paths as ReadersTest derives them for prefixes.log
        String runner = "selftests: drivers/net: throughput.py";
        assertThat(back.series()).extracting(s -> s.key().display(), Baseline.Series::unit).containsExactly(
                tuple(runner + "/throughput/throughput@remote", "Mbit/s"),
                tuple(runner + "/throughput/throughput{streams=4}@local", "Mbit/s"),
                tuple("ping/rtt_ns@local", "ns"),
                tuple(runner + "/ping/rtt_ns@local", "ns"));
        assertThat(back.series().get(2).runs().get(0).samples()).containsExactly(18250);
        assertThat(back.series().get(3).runs().get(0).samples()).containsExactly(18300);
        assertThat(back.series().get(3).runs().get(0).times()).containsExactly(2);
        assertThat(back.series().get(1).runs().get(0).run()).isEqualTo("r1");
        assertThat(back.toJson()).isEqualTo(b.toJson());
    }

    @Test
    void anEmptyFileOrOneWithoutFormatOrVersionSaysSo() {
        // a missing field printed as nothing: "has format ; allowed"
        assertThatThrownBy(() -> Baseline.parse("e.json", "")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline e.json is empty; allowed: a JSON object with \"format\": \"linerate-baseline\"");
        assertThatThrownBy(() -> Baseline.parse("o.json", "{}"))
                .hasMessage("baseline o.json has format (none); allowed: \"linerate-baseline\"");
        assertThatThrownBy(() -> Baseline.parse("a.json", "[]"))
                .hasMessage("baseline a.json has format (none: it is not a JSON object); allowed: \"linerate-baseline\"");
        assertThatThrownBy(() -> Baseline.parse("v.json", "{\"format\":\"linerate-baseline\"}"))
                .hasMessage("baseline v.json has format version (none); this linerate reads versions 1 to 3");
    }

    @Test
    void anotherVersionOrFormatIsAClearError() {
        assertThatThrownBy(() -> Baseline.parse("new.json", "{\"format\":\"linerate-baseline\",\"version\":4,\"series\":[]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline new.json has format version 4; this linerate reads versions 1 to 3");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":\"something-else\",\"version\":1}"))
                .hasMessage("baseline x.json has format \"something-else\"; allowed: \"linerate-baseline\"");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":\"linerate-baseline\",\"version\":1}"))
                .hasMessage("baseline x.json has no \"series\" array; allowed: a linerate-baseline document as "
                        + "written by gate --save");
        assertThatThrownBy(() -> Baseline.parse("x.json", "{\"format\":"))
                .hasMessageStartingWith("baseline x.json is not valid JSON");
        assertThatThrownBy(() -> Baseline.parse("x.json", """
                {"format":"linerate-baseline","version":1,"series":[{"name":"a_mbps","host":"local","runs":[{"samples":["1"]}]}]}"""))
                .hasMessage("baseline x.json, series #1 (a_mbps@local), sample /series/0/runs/0/samples/0: \"1\" is not allowed;"
                        + " allowed: a finite number");
        assertThatThrownBy(() -> Baseline.parse("x.json", """
                {"format":"linerate-baseline","version":2,"series":[{"name":"a_mbps","host":"local","runs":[],
                 "policy":{"name":"a_mbps","regression":{"better":"up","compare":"p50","relative_tolerance":0.05},"summarize":"distribution"}}]}"""))
                .hasMessage("baseline x.json, series #1 (a_mbps@local): policy a_mbps: regression.better 'up' is not allowed;"
                        + " allowed: higher, lower");
    }

    @Test
    void aRunsSamplesTimesOrLabelsNodeOfTheWrongTypeIsNamedByItsPath() {
        String head = "{\"format\":\"linerate-baseline\",\"version\":3,\"series\":[{\"name\":\"a_mbps\",\"host\":\"local\",";
        // samples as an object: found by fuzzing, where it once failed with a NullPointerException
        assertThatThrownBy(() -> Baseline.parse("x.json", head + "\"runs\":[{\"samples\":{\"a\":1}}]}]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline x.json, series #1 (a_mbps@local): /series/0/runs/0/samples is {\"a\":1}; allowed: an"
                        + " array of numbers");
        assertThatThrownBy(() -> Baseline.parse("x.json", head + "\"runs\":[{\"samples\":[1],\"times\":{\"t\":0}}]}]}"))
                .hasMessage("baseline x.json, series #1 (a_mbps@local): /series/0/runs/0/times is {\"t\":0}; allowed: an"
                        + " array of seconds");
        assertThatThrownBy(() -> Baseline.parse("x.json", head + "\"runs\":{\"r\":{\"samples\":[1]}}}]}"))
                .hasMessage("baseline x.json, series #1 (a_mbps@local): /series/0/runs is {\"r\":{\"samples\":[1]}}; allowed:"
                        + " an array of runs");
        assertThatThrownBy(() -> Baseline.parse("x.json", head + "\"runs\":[null]}]}"))
                .hasMessage("baseline x.json, series #1 (a_mbps@local): /series/0/runs/0 is null; allowed: an object with"
                        + " \"samples\"");
        assertThatThrownBy(() -> Baseline.parse("x.json", head + "\"labels\":[\"x\"],\"runs\":[]}]}"))
                .hasMessage("baseline x.json, series #1: /series/0/labels is [\"x\"]; allowed: an object of strings");
    }

    @Test
    void aVersionOneBaselineIsStillReadAndComparesFlatLogsAsBefore() {
        // baselines/v1-loopback.json is the file linerate wrote as format version 1 from inputs/loopback.log
        Baseline v1 = Baseline.parse("v1-loopback.json", TestFiles.resource("baselines/v1-loopback.json"));
        assertThat(v1.version()).isEqualTo(1);
        assertThat(v1.series()).extracting(s -> s.key().display(), s -> s.policy()).containsExactly(
                tuple("udp4/udp4_mbps@local", null), tuple("udp4/udp4_jitter_ms@local", null),
                tuple("tcp4/tcp4_mbps@local", null));
        GateReport same = Gate.create().baseline(v1).environment(GateTest.ENV).run(TestFiles.read("loopback.log"));
        assertThat(same.verdicts()).extracting(Verdict::kind).containsOnly(Verdict.Kind.PASS);
        // the log has 3 runs a side, below the 5 the exact test needs: only low-runs warnings, no key warning
        assertThat(same.warnings()).isNotEmpty().allSatisfy(w -> assertThat(w.message()).startsWith("low runs: base 3, cur 3"));
        // a nested log against it: the series are new, and a warning says why
        GateReport nested = Gate.create().baseline(v1).run(MetricReaders.read("ports.log", KtapNestingTest.indented(900, 900)));
        assertThat(nested.warnings()).filteredOn(w -> !w.message().startsWith("low runs")).singleElement().satisfies(w -> assertThat(w.message())
                .startsWith("the baseline is of format version 1, which keyed a series by its innermost KTAP test only")
                .contains("port_a/throughput/throughput@local"));
        assertThat(Reports.ktap(nested)).contains("# warning: baseline: the baseline is of format version 1");
    }

    static Verdict first(GateReport r) {
        assertThat(r.verdicts()).extracting(Verdict::kind).last().isEqualTo(Verdict.Kind.PASS);
        return r.verdicts().get(0);
    }

    static final String CONTEXT_POLICY = GateTest.policy("{\"name\":\"context_switches\",\"regression\":{\"better\":\"lower\","
            + "\"compare\":\"p50\",\"relative_tolerance\":0.1},\"summarize\":\"distribution\"}");

    @Test
    void aSavedBaselineKeepsThePolicyEachSeriesWasJudgedWith() {
        // saved from a log whose policy line says context_switches is lower-better with 10 %
        MetricSet base = MetricReaders.read("base.log", CONTEXT_POLICY + GateTest.metrics("context_switches", "", 100)
                + GateTest.metrics("tcp4_mbps", "Mbit/s", 900));
        Baseline saved = Baseline.parse("b.json", Gate.create().baselineOf(base, GateTest.ENV, GateTest.CREATED).toJson());
        assertThat(saved.version()).isEqualTo(3);
        Policy stored = saved.series().get(0).policy();
        assertThat(stored.source()).isEqualTo(Policy.Source.BASELINE);
        assertThat(stored.better()).isEqualTo(Better.LOWER);
        assertThat(stored.relativeTolerance()).isEqualTo(0.1);
        // the default it was judged with is stored too
        assertThat(saved.series().get(1).policy().better()).isEqualTo(Better.HIGHER);
        assertThat(saved.series().get(1).policy().relativeTolerance()).isEqualTo(0.05);

        // a later log without policy lines: 100 -> 115 is +15 %, beyond the stored 10 %; without the stored
        // policy context_switches would have no direction at all
        String plain = GateTest.metrics("context_switches", "", 115) + GateTest.metrics("tcp4_mbps", "Mbit/s", 900);
        Verdict v = first(Gate.create().baseline(saved).run(MetricReaders.read("cur.log", plain)));
        assertThat(v.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(v.policySource()).isEqualTo("baseline");
        assertThat(v.tolerance()).isEqualTo(0.1);
        // an embedded line in the current log beats it: 20 % lets +15 % pass
        String wider = CONTEXT_POLICY.replace("0.1}", "0.2}");
        Verdict embedded = first(Gate.create().baseline(saved).run(MetricReaders.read("cur.log", wider + plain)));
        assertThat(embedded.kind()).isEqualTo(Verdict.Kind.PASS);
        assertThat(embedded.policySource()).isEqualTo("embedded");
        // and a policy file beats both: 5 % makes +15 % a regression again
        Policies file = Policies.parseFile("p.json", "[" + CONTEXT_POLICY.substring(CONTEXT_POLICY.indexOf('{'))
                .replace("0.1}", "0.05}").strip() + "]");
        Verdict filed = first(Gate.create().baseline(saved).policies(file).run(MetricReaders.read("cur.log", wider + plain)));
        assertThat(filed.kind()).isEqualTo(Verdict.Kind.REGRESSION);
        assertThat(filed.policySource()).isEqualTo("file");
    }

    @Test
    void aBaselineSavedFromTheLoopbackSuitesKtapLinesKeepsItsEmbeddedPolicies() {
        // loopback.log embeds udp4_mbps and udp4_jitter_ms policy lines; tcp4_mbps has only ZPERF-RESULT lines
        Baseline saved = Baseline.parse("b.json", Gate.create().tolerance(0.12)
                .baselineOf(TestFiles.read("loopback.log"), GateTest.ENV, GateTest.CREATED).toJson());
        assertThat(saved.series()).extracting(s -> s.key().name(), s -> s.policy().relativeTolerance())
                .containsExactly(tuple("udp4_mbps", 0.12), tuple("udp4_jitter_ms", 0.12), tuple("tcp4_mbps", 0.12));
        assertThat(saved.toJson()).contains("\"policy\" : {\n      \"name\" : \"udp4_mbps\"");
    }
}
