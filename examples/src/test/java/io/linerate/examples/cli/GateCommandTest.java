package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GateCommandTest {
    @TempDir
    Path dir;
    String out;
    String err;

    static String run(double tcp, double udp, double jitter) {
        return String.format(java.util.Locale.ROOT, String.join("\n",
                "ZPERF-RESULT udp4_mbps=%.3f",
                "# ktap-metric-policy-json: {\"name\":\"udp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp4_mbps\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"Mbit/s\",\"value\":%s}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp4_jitter_ms\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"ms\",\"value\":%s}",
                "ZPERF-RESULT tcp4_mbps=%.3f",
                "ZPERF-DONE", ""), udp, Double.toString(udp), Double.toString(jitter), tcp);
    }

    int gate(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = new CommandLine(new GateCommand());
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        String[] all = new String[args.length + 2];
        all[0] = "--base-dir";
        all[1] = dir.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        int code = cl.execute(all);
        out = o.toString();
        err = e.toString();
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
        return code;
    }

    void write(String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content);
    }

    @Test
    void saveThenGateAnUnchangedRunPassesAndACutRunFailsNamingTheMetric() throws IOException {
        write("base.log", run(9120.5, 1234.567, 0.0123));
        write("same.log", run(9100.25, 1230.0, 0.0124));
        write("cut.log", run(8200.0, 1230.0, 0.0124));
        assertThat(gate("--input", "base.log", "--save", "baseline.json")).isZero();
        assertThat(dir.resolve("baseline.json")).exists();
        assertThat(Files.readString(dir.resolve("baseline.json"))).contains("\"format\" : \"linerate-baseline\"")
                .contains("\"samples\" : [ 9120.5 ]");
        assertThat(err).contains("saved baseline baseline.json (3 series)");

        assertThat(gate("--input", "same.log", "--baseline", "baseline.json")).isZero();
        assertThat(out).startsWith("KTAP version 1\n1..3\n")
                .contains("ok 1 udp4_mbps@local\n")
                .endsWith("# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n");

        assertThat(gate("--input", "cut.log", "--baseline", "baseline.json")).isEqualTo(1);
        // (8200 - 9120.5) / 9120.5 = -10.09 %
        assertThat(out).contains("not ok 3 tcp4_mbps@local # regressed -10.1% (base 9120.5, cur 8200 Mbit/s, tol 5%)\n")
                .endsWith("# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:0 error:0\n");

        assertThat(gate("--input", "cut.log", "--baseline", "baseline.json", "--tolerance", "12")).isZero();
    }

    @Test
    void aSavedBaselineKeepsTheEmbeddedPoliciesForTheNextCompare() throws IOException {
        write("base.log", String.join("\n",
                "# ktap-metric-policy-json: {\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.15},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"Mbit/s\",\"value\":1000}",
                ""));
        write("cur.log", "ZPERF-RESULT tcp4_mbps=900\nZPERF-DONE\n");
        assertThat(gate("--input", "base.log", "--save", "b.json")).isZero();
        assertThat(Files.readString(dir.resolve("b.json"))).contains("\"version\" : 2").contains("\"relative_tolerance\" : 0.15");
        // 1000 -> 900 is -10 %: within the stored 15 %, though beyond the default 5 %
        assertThat(gate("--input", "cur.log", "--baseline", "b.json")).isZero();
        assertThat(out).contains("# tcp4_mbps@local: pass -10.0% (base 1000, cur 900 Mbit/s, tol 15%), p50 by threshold, policy baseline");
    }

    @Test
    void writesJsonMarkdownAndSvgReports() throws IOException {
        write("base.log", run(100, 100, 1));
        write("cur.log", run(90, 100, 1));
        assertThat(gate("--input", "base.log", "--save", "b.json")).isZero();
        assertThat(gate("--input", "cur.log", "--baseline", "b.json", "--report", "r.json", "--markdown", "r.md",
                "--plot", "chart.svg")).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("r.json"))).contains("\"exit_code\" : 1").contains("\"verdict\" : \"regression\"");
        assertThat(Files.readString(dir.resolve("r.md"))).startsWith("**linerate gate: failed**")
                .contains("| `tcp4_mbps@local` | **regression** | 100 Mbit/s | 90 Mbit/s | -10.0% | 5% |");
        assertThat(Files.readString(dir.resolve("chart.svg"))).startsWith("<?xml").contains("role=\"img\"").contains(">regressed<");
    }

    @Test
    void badToleranceIsAUsageErrorNamingTheValueAndRange() throws IOException {
        write("cur.log", run(100, 100, 1));
        assertThat(gate("--input", "cur.log", "--tolerance", "-5")).isEqualTo(2);
        assertThat(err).isEqualTo("gate: --tolerance -5 is not allowed; allowed: 0 to 100 (percent)" + System.lineSeparator());
        assertThat(gate("--input", "cur.log", "--tolerance", "101")).isEqualTo(2);
        assertThat(err).contains("--tolerance 101 is not allowed");
        assertThat(gate("--input", "cur.log", "--tolerance", "five")).isEqualTo(2);
        assertThat(err).contains("five");
        assertThat(out).isEmpty();
    }

    @Test
    void unsafePathsAreRefusedNamingThePath() throws IOException {
        write("cur.log", run(100, 100, 1));
        assertThat(gate("--input", "../cur.log")).isEqualTo(2);
        assertThat(err).contains("path ../cur.log contains '..'");
        String abs = dir.resolve("cur.log").toString();
        assertThat(gate("--input", abs)).isEqualTo(2);
        assertThat(err).contains("absolute path " + abs + " is not allowed");
        assertThat(gate("--input", "cur.log", "--report", "../r.json")).isEqualTo(2);
        assertThat(err).contains("path ../r.json contains '..'");
    }

    @Test
    void baselineOfAnotherVersionAndMisspelledPolicyKeyAreUsageErrors() throws IOException {
        write("cur.log", run(100, 100, 1));
        write("v3.json", "{\"format\":\"linerate-baseline\",\"version\":3,\"series\":[]}");
        assertThat(gate("--input", "cur.log", "--baseline", "v3.json")).isEqualTo(2);
        assertThat(err).contains("baseline v3.json has format version 3; this linerate reads versions 1 to 2");
        write("policy.json", "[{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"sumarize\":\"distribution\"}]");
        assertThat(gate("--input", "cur.log", "--policy", "policy.json")).isEqualTo(2);
        assertThat(err).contains("policy file policy.json, policy #1: policy tcp4_mbps: unknown key sumarize");
    }

    @Test
    void emptyAndMalformedInputsFailAndAreNotSaved() throws IOException {
        write("empty.log", "");
        assertThat(gate("--input", "empty.log")).isEqualTo(1);
        assertThat(out).contains("not ok 1 empty.log@input # error: input holds no metrics");
        write("bad.log", run(100, 100, 1) + "# ktap-metric-json: {\"host\":\"local\",\"name\":\"x_mbps\",\"value\":}\n");
        assertThat(gate("--input", "bad.log", "--save", "b.json")).isEqualTo(1);
        assertThat(out).contains("# error: malformed ktap-metric-json payload");
        assertThat(out).contains("bad.log:7@input");
        assertThat(err).contains("not saving baseline b.json");
        assertThat(dir.resolve("b.json")).doesNotExist();
    }

    @Test
    void anotherEnvironmentIsInconclusiveUnlessAllowed() throws IOException {
        write("cur.log", run(50, 100, 1));
        write("other.json", """
                {"format":"linerate-baseline","version":1,"created":"2026-01-05T10:00:00Z",
                 "environment":{"kernel":"Plan 9","cpu":"none","jvm":"none","transport":"nio","linerate":"0.0.1"},
                 "series":[{"test":"","name":"tcp4_mbps","host":"local","labels":{},"unit":"Mbit/s",
                   "runs":[{"run":"a","samples":[100],"times":[0]}]}]}""");
        assertThat(gate("--input", "cur.log", "--baseline", "other.json")).isZero();
        assertThat(out).contains("ok 3 tcp4_mbps@local # SKIP environment differs: kernel 'Plan 9' vs");
        assertThat(gate("--input", "cur.log", "--baseline", "other.json", "--allow-env-mismatch")).isEqualTo(1);
        assertThat(out).contains("not ok 3 tcp4_mbps@local # regressed -50.0% (base 100, cur 50 Mbit/s, tol 5%)");
    }

    @Test
    void missingInputOptionIsAUsageError() {
        assertThat(gate()).isEqualTo(2);
        assertThat(err).contains("Missing required option: '--input=FILE'");
    }
}
