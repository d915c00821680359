package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code linerate serve --iperf3}: what it refuses before it binds anything; and --allow-from, which every server takes. */
class ServeIperf3CommandTest {
    private static int run(StringWriter err, String... args) {
        return Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    }

    @Test
    void offLoopbackItNeedsAllowFrom() {
        StringWriter err = new StringWriter();
        // 198.18.0.1 need not exist on this host: --allow-from is checked before anything binds
        assertThat(run(err, "serve", "--iperf3", "--bind", "198.18.0.1")).isEqualTo(2);
        assertThat(err.toString()).contains("198.18.0.1, which is not a loopback address: it needs --allow-from CIDR[,CIDR...]");
    }

    @Test
    void aBadBlockIsNamed() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "serve", "--iperf3", "--bind", "198.18.0.1", "--allow-from", "198.18.0.0/15,2001:2::/129"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("'2001:2::/129'").contains("0..128");
    }

    @Test
    void secretFileBelongsToLinerateClientsOnly() {
        StringWriter err2 = new StringWriter();
        assertThat(run(err2, "serve", "--iperf3", "--secret-file", "/nonexistent")).isEqualTo(2);
        assertThat(err2.toString()).contains("--secret-file does not apply to --iperf3");
    }

    @Test
    void theAgentServesOnlyTheClientsAllowFromAllowsAsTheIperfServersDo() throws Exception {
        try (ServeRun outside = ServeRun.start("serve", "--port", "0", "--allow-from", "198.18.0.0/15")) {
            StringWriter err = new StringWriter();
            // 127.0.0.1 is outside 198.18.0.0/15: the agent closes the connection before it reads anything
            assertThat(Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + outside.port(), "--duration", "200ms")).as(err.toString()).isEqualTo(1);
            assertThat(outside.lines().get(0)).contains("clients from 198.18.0.0/15");
        }
        try (ServeRun inside = ServeRun.start("serve", "--port", "0", "--allow-from", "127.0.0.0/8")) {
            Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), "stream", "--peer",
                    "127.0.0.1:" + inside.port(), "--duration", "200ms", "--warmup", "0s");
            // served: the agent reports the test it ran
            assertThat(inside.await(l -> l.endsWith("  receiver"), 30)).startsWith("[  1]");
        }
    }

    @Test
    void maxStreamsIsCheckedAsTheAgentChecksIt() {
        for (String n : new String[] {"0", "200"}) {
            StringWriter err = new StringWriter();
            // refused before anything binds, so the default port 5201 need not be free
            assertThat(run(err, "serve", "--iperf3", "--max-streams", n)).isEqualTo(2);
            assertThat(err.toString()).contains("max streams " + n + " is out of range; allowed: 1..128");
        }
    }
}
