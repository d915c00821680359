package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code linerate gate} with the output of a run stopped by Ctrl-C: refused as a run and as a baseline. */
class GateInterruptedInputTest {
    private static final String INTERRUPTED = "KTAP version 1\n1..1\n"
            + "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":1.5,"
            + "\"unit\":\"Mbit/s\",\"value\":900.0}\n"
            + "not ok 1 tcp4 # interrupted\n# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";

    @TempDir
    Path tmp;

    private record Run(int exit, String out, String err) {}

    private static Run linerate(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void anInterruptedRunIsNotSavedAsABaseline() throws Exception {
        Path input = Files.writeString(tmp.resolve("run.ktap"), INTERRUPTED);
        Path base = tmp.resolve("base.json");
        Run r = linerate("gate", "--input", input.toString(), "--save", base.toString());
        assertThat(r.exit()).isEqualTo(Linerate.FAILED);
        assertThat(r.out()).contains("KTAP test tcp4 was interrupted (stopped by SIGINT before its bound)");
        assertThat(r.err()).contains("gate: not saving baseline " + base);
        assertThat(base).doesNotExist();
    }

    @Test
    void anInterruptedRunFailsTheGate() throws Exception {
        Path input = Files.writeString(tmp.resolve("run.ktap"), INTERRUPTED);
        Run r = linerate("gate", "--input", input.toString());
        assertThat(r.exit()).isEqualTo(Linerate.FAILED);
        assertThat(r.out()).contains("is gated neither as a run nor as a baseline");
    }
}
