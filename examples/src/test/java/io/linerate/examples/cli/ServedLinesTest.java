package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.server.ServedSummary;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The agent's summary line of a UDP test it received: loss as counted, or unknown where the test was cut short. */
class ServedLinesTest {
    private static String end(ServedSummary s) {
        StringWriter text = new StringWriter();
        new ServedLines(new PrintWriter(text, true)).onEnd(s);
        return text.toString().strip();
    }

    @Test
    void aUdpTestCutShortSaysItsLossIsUnknownNotZero() {
        // 1000 datagrams of 1460 bytes in 1 s; the client's count of what it sent never came
        String line = end(new ServedSummary(16, false, true, 1_000_000_000L, 1_460_000, 1000, 0, OptionalDouble.empty(),
                "the agent stopped"));
        assertThat(line).isEqualTo("[ 16]  0.00- 1.00 sec  1460000 Bytes  11.68 Mbits/sec  1000 datagrams received, "
                + "loss unknown  receiver  (ended: the agent stopped)");
    }

    @Test
    void aUdpTestDoneGivesItsLossAsCounted() {
        // 1000 received, 250 of those sent lost: 250/1250 (20%)
        String line = end(new ServedSummary(3, false, true, 1_000_000_000L, 1_460_000, 1000, 250,
                OptionalDouble.of(50_000), ServedSummary.DONE));
        assertThat(line).startsWith("[  3]  0.00- 1.00 sec  1460000 Bytes  11.68 Mbits/sec").contains("250/1250 (20%)")
                .endsWith("receiver").doesNotContain("unknown");
    }
}
