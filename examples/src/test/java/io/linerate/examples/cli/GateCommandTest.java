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
        CommandLine cl = Linerate.commandLine(new GateCommand());
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        int code = cl.execute(args);
        out = o.toString();
        err = e.toString();
        assertThat(err).doesNotContain("Exception").doesNotContain("\tat ");
        return code;
    }

    void write(String name, String content) throws IOException {
        Files.writeString(dir.resolve(name), content);
    }

    /** @return the absolute path of {@code name} in the test's directory */
    String f(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void saveThenGateAnUnchangedRunPassesAndACutRunFailsNamingTheMetric() throws IOException {
        write("base.log", run(9120.5, 1234.567, 0.0123));
        write("same.log", run(9100.25, 1230.0, 0.0124));
        write("cut.log", run(8200.0, 1230.0, 0.0124));
        assertThat(gate("--input", f("base.log"), "--save", f("baseline.json"))).isZero();
        assertThat(dir.resolve("baseline.json")).exists();
        assertThat(Files.readString(dir.resolve("baseline.json"))).contains("\"format\" : \"linerate-baseline\"")
                .contains("\"samples\" : [ 9120.5 ]");
        assertThat(err).contains("saved baseline " + f("baseline.json") + " (3 series)");

        assertThat(gate("--input", f("same.log"), "--baseline", f("baseline.json"))).isZero();
        assertThat(out).startsWith("KTAP version 1\n1..3\n")
                .contains("ok 1 udp4_mbps@local\n")
                .endsWith("# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0\n");

        assertThat(gate("--input", f("cut.log"), "--baseline", f("baseline.json"))).isEqualTo(1);
        // (8200 - 9120.5) / 9120.5 = -10.09 %
        assertThat(out).contains("not ok 3 tcp4_mbps@local # regressed -10.1% (base 9120.5, cur 8200 Mbit/s, tol 5%)\n")
                .endsWith("# Totals: pass:2 fail:1 xfail:0 xpass:0 skip:0 error:0\n");

        assertThat(gate("--input", f("cut.log"), "--baseline", f("baseline.json"), "--tolerance", "12")).isZero();
    }

    @Test
    void aSavedBaselineKeepsTheEmbeddedPoliciesForTheNextCompare() throws IOException {
        write("base.log", String.join("\n",
                "# ktap-metric-policy-json: {\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.15},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"Mbit/s\",\"value\":1000}",
                ""));
        write("cur.log", "ZPERF-RESULT tcp4_mbps=900\nZPERF-DONE\n");
        assertThat(gate("--input", f("base.log"), "--save", f("b.json"))).isZero();
        assertThat(Files.readString(dir.resolve("b.json"))).contains("\"version\" : 3").contains("\"relative_tolerance\" : 0.15");
        // 1000 -> 900 is -10 %: within the stored 15 %, though beyond the default 5 %
        assertThat(gate("--input", f("cur.log"), "--baseline", f("b.json"))).isZero();
        assertThat(out).contains("# tcp4_mbps@local: pass -10.0% (base 1000, cur 900 Mbit/s, tol 15%), p50 by threshold, policy baseline");
    }

    @Test
    void writesJsonMarkdownAndSvgReports() throws IOException {
        write("base.log", run(100, 100, 1));
        write("cur.log", run(90, 100, 1));
        assertThat(gate("--input", f("base.log"), "--save", f("b.json"))).isZero();
        assertThat(gate("--input", f("cur.log"), "--baseline", f("b.json"), "--report", f("r.json"), "--markdown", f("r.md"),
                "--plot", f("chart.svg"))).isEqualTo(1);
        assertThat(Files.readString(dir.resolve("r.json"))).contains("\"exit_code\" : 1").contains("\"verdict\" : \"regression\"");
        assertThat(Files.readString(dir.resolve("r.md"))).startsWith("**linerate gate: failed**")
                .contains("| `tcp4_mbps@local` | **regression** | 100 Mbit/s | 90 Mbit/s | -10.0% | 5% |");
        assertThat(Files.readString(dir.resolve("chart.svg"))).startsWith("<?xml").contains("role=\"img\"").contains(">regressed<");
    }

    @Test
    void badToleranceIsAUsageErrorNamingTheValueAndRange() throws IOException {
        write("cur.log", run(100, 100, 1));
        assertThat(gate("--input", f("cur.log"), "--tolerance", "-5")).isEqualTo(2);
        assertThat(err).isEqualTo("gate: --tolerance -5 is not allowed; allowed: 0 to 100 (percent)" + System.lineSeparator());
        assertThat(gate("--input", f("cur.log"), "--tolerance", "101")).isEqualTo(2);
        assertThat(err).contains("--tolerance 101 is not allowed");
        assertThat(gate("--input", f("cur.log"), "--tolerance", "five")).isEqualTo(2);
        assertThat(err).contains("five");
        assertThat(out).isEmpty();
    }

    @Test
    void pathsAreUsedAsTypedAbsoluteAndWithDotDot() throws IOException {
        write("base.log", run(100, 100, 1));
        write("cur.log", run(100, 100, 1));
        Files.createDirectories(dir.resolve("baselines"));
        // relative to the working directory, climbing out of it with '..'
        String relative = Path.of("").toAbsolutePath().relativize(dir.resolve("cur.log")).toString();
        assertThat(relative).startsWith("..");
        // an absolute --save, as "$HOME/baselines/tcp4.json" is
        assertThat(gate("--input", f("base.log"), "--save", f("baselines/tcp4.json"))).isZero();
        assertThat(gate("--input", relative, "--baseline", dir.resolve("baselines/../baselines/tcp4.json").toString(),
                "--report", dir.resolve("baselines/../r.json").toString())).isZero();
        assertThat(out).contains("# Totals: pass:3 fail:0");
        assertThat(dir.resolve("r.json")).exists();
        assertThat(gate("--input", f("nope.log"))).isEqualTo(2);
        assertThat(err).isEqualTo("gate: input " + f("nope.log") + " does not exist" + System.lineSeparator());
    }

    @Test
    void saveRefusesToReplaceABaselineWithoutForceAndSaysHowToUpdateIt() throws IOException {
        write("base.log", run(100, 100, 1));
        write("new.log", run(90, 100, 1));
        assertThat(gate("--input", f("base.log"), "--save", f("b.json"))).isZero();
        String first = Files.readString(dir.resolve("b.json"));
        assertThat(first).contains("\"samples\" : [ 100.0 ]");

        assertThat(gate("--input", f("new.log"), "--save", f("b.json"))).isEqualTo(2);
        assertThat(err).isEqualTo("gate: not saving baseline " + f("b.json") + ": the file exists, and a baseline is only"
                + " replaced on purpose. To update it, gate the new run against it first (--baseline " + f("b.json")
                + "), review the report, then save again with --force; or --save a new file" + System.lineSeparator());
        assertThat(out).isEmpty();
        assertThat(dir.resolve("b.json")).hasContent(first);

        assertThat(gate("--input", f("new.log"), "--save", f("b.json"), "--force")).isZero();
        assertThat(Files.readString(dir.resolve("b.json"))).contains("\"samples\" : [ 90.0 ]");
        assertThat(err).contains("saved baseline " + f("b.json") + " (3 series)");
    }

    @Test
    void helpStatesTheRecommendedRunCount() {
        StringWriter o = new StringWriter();
        CommandLine cl = new CommandLine(new GateCommand());
        cl.setOut(new PrintWriter(o));
        assertThat(cl.execute("--help")).isZero();
        // 5 runs a side: the fewest with which the exact Mann-Whitney test can reach alpha 0.01
        // (1/C(10,5) = 0.004 < 0.01 <= 1/C(8,4) = 0.014)
        assertThat(o.toString().replaceAll("\\s+", " ")).contains("Gate on at least 5 runs per side (loopback --repeat 5)")
                .contains("--force")
                // --base-dir confines only the file names derived from the data; typed paths stay as typed
                .contains("--base-dir=DIR Directory for the files named after the input data")
                .contains("Typed paths are used as typed.");
    }

    @Test
    void baselineOfAnotherVersionAndMisspelledPolicyKeyAreUsageErrors() throws IOException {
        write("cur.log", run(100, 100, 1));
        write("v4.json", "{\"format\":\"linerate-baseline\",\"version\":4,\"series\":[]}");
        assertThat(gate("--input", f("cur.log"), "--baseline", f("v4.json"))).isEqualTo(2);
        assertThat(err).contains("baseline " + f("v4.json") + " has format version 4; this linerate reads versions 1 to 3");
        write("policy.json", "[{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"sumarize\":\"distribution\"}]");
        assertThat(gate("--input", f("cur.log"), "--policy", f("policy.json"))).isEqualTo(2);
        assertThat(err).contains("policy file " + f("policy.json") + ", policy #1: policy tcp4_mbps: unknown key sumarize");
        write("five.json", "[{\"name\":\"tcp4_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\","
                + "\"relative_tolerance\":5},\"summarize\":\"distribution\"}]");
        assertThat(gate("--input", f("cur.log"), "--policy", f("five.json"))).isEqualTo(2);
        assertThat(err).contains("policy tcp4_mbps: relative_tolerance 5 is not allowed; allowed: 0 to 1 (a fraction: 0.05 = 5%)");
    }

    @Test
    void emptyAndMalformedInputsFailAndAreNotSaved() throws IOException {
        write("empty.log", "");
        assertThat(gate("--input", f("empty.log"))).isEqualTo(1);
        assertThat(out).contains("not ok 1 " + f("empty.log") + "@input # error: input holds no metrics");
        write("bad.log", run(100, 100, 1) + "# ktap-metric-json: {\"host\":\"local\",\"name\":\"x_mbps\",\"value\":}\n");
        assertThat(gate("--input", f("bad.log"), "--save", f("b.json"))).isEqualTo(1);
        assertThat(out).contains("# error: malformed ktap-metric-json payload");
        assertThat(out).contains("bad.log:7@input");
        assertThat(err).contains("not saving baseline " + f("b.json"));
        assertThat(dir.resolve("b.json")).doesNotExist();
        // a log whose only test was skipped is an input, but no baseline: every gate against it would compare nothing
        write("skipped.log", "KTAP version 1\n1..1\nok 1 udp4_frag # SKIP no fragmentation here\n");
        assertThat(gate("--input", f("skipped.log"), "--save", f("s.json"))).isEqualTo(1);
        assertThat(err).contains("not saving baseline " + f("s.json") + ": the input holds no series");
        assertThat(dir.resolve("s.json")).doesNotExist();
    }

    @Test
    void anotherEnvironmentIsInconclusiveUnlessAllowed() throws IOException {
        write("cur.log", run(50, 100, 1));
        write("other.json", """
                {"format":"linerate-baseline","version":1,"created":"2026-01-05T10:00:00Z",
                 "environment":{"kernel":"Plan 9","cpu":"none","jvm":"none","transport":"nio","linerate":"0.0.1"},
                 "series":[{"test":"","name":"tcp4_mbps","host":"local","labels":{},"unit":"Mbit/s",
                   "runs":[{"run":"a","samples":[100],"times":[0]}]}]}""");
        // every compared series inconclusive for the environment: the gate compared nothing, which is no pass
        assertThat(gate("--input", f("cur.log"), "--baseline", f("other.json"))).isEqualTo(1);
        assertThat(out).contains("ok 3 tcp4_mbps@local # SKIP environment differs: kernel 'Plan 9' vs")
                .contains("not ok 4 baseline@gate # error: compared nothing against the baseline: the environment differs"
                        + " (kernel 'Plan 9' vs")
                .contains("accept it with --allow-env-mismatch")
                .contains("The baseline had 1 series (tcp4_mbps@local); this run produced 3 series");
        assertThat(gate("--input", f("cur.log"), "--baseline", f("other.json"), "--allow-env-mismatch")).isEqualTo(1);
        assertThat(out).contains("not ok 3 tcp4_mbps@local # regressed -50.0% (base 100, cur 50 Mbit/s, tol 5%)");
    }

    @Test
    void missingInputOptionIsAUsageError() {
        assertThat(gate()).isEqualTo(2);
        assertThat(err).contains("Missing required option: '--input=FILE'");
    }
}
