package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The progress line's drawing and erasing, on a fake terminal: drawn only when told to, no thread. */
class ProgressLineTest {
    private static final String ERASE = "\r\033[K";
    private static final long NOW = 1_000_000_000_000L;

    private final StringWriter out = new StringWriter();
    private final StringWriter terminal = new StringWriter();
    private final AtomicReference<String> says = new AtomicReference<>("search trial 2 (search): 550.000 Mbit/s offered");
    private final ProgressLine line = new ProgressLine(new PrintWriter(out), new PrintWriter(terminal),
            () -> (counters, nowMillis) -> says.get(), 40);

    @Test
    void itIsShownOnATerminalOnlyUnlessThePropertySaysOtherwise() {
        assertThat(ProgressLine.shown("auto", true)).isTrue();
        assertThat(ProgressLine.shown("auto", false)).isFalse();
        assertThat(ProgressLine.shown(" Always ", false)).isTrue();
        assertThat(ProgressLine.shown("never", true)).isFalse();
        assertThat(ProgressLine.start(new PrintWriter(out), new PrintWriter(terminal), () -> ProgressView.COUNTERS, false))
                .isEmpty();
        assertThat(terminal.toString()).isEmpty();
    }

    @Test
    void eachDrawingOverwritesTheLastInPlace() {
        line.draw(NOW);
        says.set("search trial 3 (search): 325.000 Mbit/s offered");
        line.draw(NOW);

        assertThat(terminal.toString()).isEqualTo(ERASE + "search trial 2 (search): 550.000 Mbit/s offered".substring(0, 37)
                + "..." + ERASE + "search trial 3 (search): 325.000 Mbit/s offered".substring(0, 37) + "...");
        assertThat(out.toString()).isEmpty();
    }

    @Test
    void aLineOfOutputErasesItFirstAndItWaitsWhileALineIsHalfWritten() {
        says.set("loopback case 1/8 udp4");
        line.draw(NOW);
        line.out().println("ZPERF-RESULT udp4_mbps 1.0");
        assertThat(terminal.toString()).isEqualTo(ERASE + "loopback case 1/8 udp4" + ERASE);
        assertThat(out.toString()).isEqualTo("ZPERF-RESULT udp4_mbps 1.0" + System.lineSeparator());

        line.err().print("linerate: half");
        line.draw(NOW);
        assertThat(terminal.toString()).as("not drawn after half a line").endsWith(ERASE + "linerate: half");
        line.err().println(" a line");
        line.draw(NOW);
        assertThat(terminal.toString()).isEqualTo(ERASE + "loopback case 1/8 udp4" + ERASE + "linerate: half a line"
                + System.lineSeparator() + ERASE + "loopback case 1/8 udp4");
    }

    @Test
    void closingErasesItAndNothingIsDrawnAfter() {
        says.set("pingpong tcp 1 B, size 1/2");
        line.draw(NOW);
        line.close();
        line.draw(NOW);
        line.close();

        assertThat(terminal.toString()).isEqualTo(ERASE + "pingpong tcp 1 B, size 1/2" + ERASE);
    }

    @Test
    void anEmptyViewErasesTheLineAndDrawsNothing() {
        says.set("");
        line.draw(NOW);
        assertThat(terminal.toString()).isEmpty();
        says.set("raw tx a rx b 60 B 2.000 s: 0.7 s");
        line.draw(NOW);
        says.set("");
        line.draw(NOW);
        assertThat(terminal.toString()).isEqualTo(ERASE + "raw tx a rx b 60 B 2.000 s: 0.7 s" + ERASE);
    }
}
