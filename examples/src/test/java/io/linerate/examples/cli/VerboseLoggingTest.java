package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.live.LiveCounters;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --verbose} in a JVM of its own (slf4j-simple reads its level once, when the first logger
 * is made): debug lines on stderr about setup and teardown; without it, none. And a command run
 * through its own {@code main} maps errors to exit codes as under {@code linerate}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class VerboseLoggingTest {
    @TempDir
    Path tmp;

    record Exit(int code, String out, String err) {}

    private Exit java(String mainClass, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("out");
        Path err = tmp.resolve("err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(100, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("child JVM did not end: " + cmd);
        }
        return new Exit(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void verboseLogsSetupAndTeardownOnStderrAndQuietLogsNothing() throws Exception {
        String dir = tmp.resolve("counters").toString();
        Exit verbose = java(Linerate.class.getName(), "stream", "--verbose", "--duration", "100ms", "--warmup", "0s",
                "--counters-dir", dir);
        // the transfer ran (0) or ran and was judged invalid (1: a loaded host may move nothing in
        // 100 ms); either way the logging is what is checked here, never a usage error or a crash
        assertThat(verbose.code()).as(verbose.out() + verbose.err()).isIn(Linerate.OK, Linerate.FAILED);
        assertThat(verbose.err())
                .contains(" DEBUG io.linerate.core.Transports - transport nio runs tcp4 ")
                .contains(" DEBUG io.linerate.nio.internal.NioStreamTransfer - opened tcp4 ")
                .contains(" DEBUG io.linerate.nio.internal.NioStreamTransfer - closed tcp4 ")
                .contains(" DEBUG io.linerate.core.live.LiveCounters - live counters in " + dir)
                .contains(" DEBUG io.linerate.core.live.LiveCounters - removed live counters file " + dir);
        assertThat(verbose.out()).doesNotContain("DEBUG").contains("tcp4");

        Exit quiet = java(Linerate.class.getName(), "stream", "--duration", "100ms", "--warmup", "0s", "--counters-dir", dir);
        assertThat(quiet.code()).as(quiet.out() + quiet.err()).isIn(Linerate.OK, Linerate.FAILED);
        assertThat(quiet.err()).doesNotContain("DEBUG").doesNotContain("INFO");
    }

    @Test
    void aCommandRunAloneMapsBadUsageToTwoWithoutAStackTraceAndTakesVerbose() throws Exception {
        Exit rr = java(RrCommand.class.getName(), "--flows", "0");
        assertThat(rr).isEqualTo(new Exit(2, "", "linerate: flows 0 is out of range; allowed: 1..1024" + System.lineSeparator()));
        Exit verbose = java(RrCommand.class.getName(), "--verbose", "--flows", "0");
        assertThat(verbose.code()).isEqualTo(2);
        assertThat(verbose.err()).contains("linerate: flows 0 is out of range").doesNotContain("\tat ");
    }
}
