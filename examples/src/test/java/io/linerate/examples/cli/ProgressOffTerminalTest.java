package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

/**
 * Run as the tests run, with stderr not a terminal, {@code search}, {@code pingpong} and
 * {@code loopback --repeat 2} draw no progress line: no carriage return, no escape sequence, in
 * either stream; yet each told its view of its progress, which a terminal would have shown.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ProgressOffTerminalTest {

    record Run(int exit, String out, String err) {}

    @BeforeAll
    static void stderrIsNoTerminal() {
        assertThat(ProgressLine.stderrIsTerminal()).as("the tests' stderr is a pipe or a file").isFalse();
        assertThat(System.getProperty(ProgressLine.PROPERTY)).as("no override of the terminal check").isNull();
    }

    private static Run run(Object command, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.commandLine(command);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    private static void assertNoProgressCharacters(Run r) {
        assertThat(r.err()).doesNotContain("\r").doesNotContain("\033");
        assertThat(r.out()).doesNotContain("\r").doesNotContain("\033");
    }

    private static String says(ReportsProgress command) {
        long now = System.currentTimeMillis();
        return command.progressView().line(ProgressView.noCounters(now), now);
    }

    @Test
    void aSearchDrawsNoProgress() {
        SearchCommand search = new SearchCommand();
        // a few trials of 250 ms: longer than a second, the line's first drawing
        Run r = run(search, "--strict", "--max-rate", "20M", "--resolution", "4M", "--trial", "200ms", "--interval", "40ms",
                "--warmup", "50ms", "--rcvbuf", "4M", "--confirm", "1");

        // 0 found, 1 even the min rate lost on a very busy host: either way trials ran
        assertThat(r.exit()).as(r.err()).isIn(0, 1);
        assertNoProgressCharacters(r);
        assertThat(says(search)).startsWith("search trial ");
    }

    @Test
    void aPingPongSweepDrawsNoProgress() {
        PingPongCommand pingpong = new PingPongCommand();
        // 600 ms a size, so that the sweep outlasts the line's first drawing, a second in
        Run r = run(pingpong, "--sizes", "1,64", "--minms", "600", "--maxms", "600", "--miniter", "1", "--maxiter", "1g",
                "--warmupms", "0", "--warmupiter", "0");

        assertThat(r.exit()).as(r.err()).isZero();
        assertNoProgressCharacters(r);
        assertThat(pingpong.progressView()).isInstanceOf(SizeSweepProgress.class);
    }

    @Test
    void aRepeatedLoopbackSuiteDrawsNoProgress() {
        LoopbackCommand loopback = new LoopbackCommand();
        // two runs of 600 ms, so that the suite outlasts the line's first drawing, a second in
        Run r = run(loopback, "--repeat", "2", "--markers", "tcp4", "--duration", "600ms", "--warmup", "50ms");

        assertThat(r.exit()).as(r.err()).isZero();
        assertNoProgressCharacters(r);
        assertThat(says(loopback)).isEqualTo("loopback run 2/2, case 1/1 tcp4");
    }
}
