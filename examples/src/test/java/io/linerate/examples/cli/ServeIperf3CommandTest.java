package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** {@code linerate serve --iperf3}: what it refuses before it binds anything. */
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
    void allowFromAndSecretFileBelongToOneKindOfClientEach() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "serve", "--allow-from", "127.0.0.0/8")).isEqualTo(2);
        assertThat(err.toString()).contains("--allow-from applies to --iperf3 and --iperf2 only");
        StringWriter err2 = new StringWriter();
        assertThat(run(err2, "serve", "--iperf3", "--secret-file", "/nonexistent")).isEqualTo(2);
        assertThat(err2.toString()).contains("--secret-file does not apply to --iperf3");
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
