package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.LatencyHistograms;
import io.linerate.core.latency.LatencyMode;
import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.latency.SizeLatency;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * One ping-pong run gated against another with the policies its own KTAP output writes: the
 * maximum and the standard deviation of one run are set by a single round trip, so a second run
 * with one slow round trip moves them by a factor while nothing regressed. They are advisory by
 * default; the mean and the percentiles still gate.
 */
class PingPongGateDefaultsTest {
    private static final RunFacts FACTS = new RunFacts("1.2.3", "2026-01-02T03:04:05Z", "Linux 6.1.0 amd64",
            "Example CPU @ 2.00GHz", "OpenJDK 64-Bit Server VM 17.0.15+6 (Example)", "--ktap");
    private static final PingPongSpec SPEC = PingPongSpec.builder().protocol(PingPongProtocol.TCP)
            .family(AddressFamily.IPV4).sizes(List.of(1)).mode(LatencyMode.HALF_RTT).build();

    @TempDir
    Path dir;

    /** @return the KTAP document of a run of 99 round trips of 2000 ns and one of {@code slowRttNanos} */
    private static String run(long slowRttNanos) {
        ExactRangeHistogram h = LatencyHistograms.create();
        for (int i = 0; i < 99; i++) {
            h.record(2000);
        }
        h.record(slowRttNanos);
        LatencyReport report = new LatencyReport(FACTS, LatencyMode.HALF_RTT, 99,
                List.of(new SizeLatency(1, h, 1_000_000, 1.5)));
        PingPongResult r = new PingPongResult(SPEC, report, new AppliedOptions(0, 0, 0, 0, 0, 0, true, false),
                List.of(), 0);
        StringWriter text = new StringWriter();
        KtapOutputs.pingpong(new PrintWriter(text), SPEC, r);
        return text.toString();
    }

    private record Outcome(int code, String out, String err) {}

    private static Outcome gate(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = Linerate.commandLine(new GateCommand());
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        int code = cl.execute(args);
        return new Outcome(code, o.toString(), e.toString());
    }

    @Test
    void aSinglePingPongRunGatedAgainstAnotherRaisesNoMaxOrStddevAlarm() throws IOException {
        // half-RTTs: base 99 x 1000 ns and one 1500 ns; now 99 x 1000 ns and one 5850 ns. The max
        // rises from 1500 to 5850 ns (+290 %), the standard deviation from 49.7 to 482.6 ns; the
        // mean from 1005 to 1048.5 ns (+4.3 %, within 5 %), p50 and p99 stay at 1000 ns
        String base = run(3000);
        String now = run(11_700);
        assertThat(base).contains("{\"name\":\"latency_max\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\","
                + "\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"advisory\":true}");
        Files.writeString(dir.resolve("base.ktap"), base);
        Files.writeString(dir.resolve("now.ktap"), now);
        Outcome save = gate("--input", dir.resolve("base.ktap").toString(), "--save", dir.resolve("b.json").toString());
        assertThat(save.code()).as(save.out() + save.err()).isZero();

        Outcome g = gate("--input", dir.resolve("now.ktap").toString(), "--baseline", dir.resolve("b.json").toString());
        assertThat(g.code()).as(g.out() + g.err()).isZero();
        String series = "{latency=half-rtt,muxer=blocking,protocol=tcp,size=1}@local";
        assertThat(g.out())
                .containsPattern("\nok \\d+ pingpong_tcp/latency_max" + java.util.regex.Pattern.quote(series)
                        + " # XFAIL advisory: regressed \\+290\\.0%")
                .containsPattern("\nok \\d+ pingpong_tcp/latency_stddev" + java.util.regex.Pattern.quote(series)
                        + " # XFAIL advisory: regressed \\+\\d+\\.\\d%")
                .containsPattern("\nok \\d+ pingpong_tcp/latency_mean" + java.util.regex.Pattern.quote(series) + "\n")
                .containsPattern("\nok \\d+ pingpong_tcp/latency_p99" + java.util.regex.Pattern.quote(series) + "\n")
                .doesNotContain("not ok")
                .contains("# Totals: pass:4 fail:0 xfail:2 ");
    }
}
