package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** Usage errors of the iperf 2 options: each names the value and what is allowed, exit 2. */
class Iperf2CommandTest {
    private static int run(StringWriter err, String... args) {
        return Linerate.execute(new PrintWriter(new StringWriter()), new PrintWriter(err), args);
    }

    @Test
    void serveIperf2OffLoopbackNeedsAllowFrom() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "serve", "--iperf2", "--bind", "0.0.0.0")).isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("needs --allow-from");
    }

    @Test
    void iperf2AndIperf3AreExclusive() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "serve", "--iperf2", "--iperf3")).isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("give one of them");
    }

    @Test
    void iperf2IsForwardOnly() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "stream", "--peer", "127.0.0.1:5001", "--peer-protocol", "iperf2", "--reverse"))
                .isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("forward only");
    }

    @Test
    void unknownHeaderIsNamed() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "stream", "--peer", "127.0.0.1:1", "--peer-protocol", "iperf2", "--protocol", "udp", "--iperf2-header", "v9"))
                .isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("'v9'").contains("allowed: seq64, seq32, legacy");
    }

    @Test
    void headerOutsideAnIperf2UdpStreamIsRefused() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "stream", "--iperf2-header", "seq32")).isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("--iperf2-header seq32 applies to UDP datagrams sent to an iperf 2 server only");

        StringWriter err2 = new StringWriter();
        // port 1 has no server: a refusal after connecting would be exit 1
        assertThat(run(err2, "stream", "--peer", "127.0.0.1:1", "--peer-protocol", "iperf3", "--protocol", "udp",
                "--iperf2-header", "legacy")).isEqualTo(Linerate.USAGE);
        assertThat(err2.toString()).contains("--iperf2-header legacy applies");

        StringWriter err3 = new StringWriter();
        assertThat(run(err3, "stream", "--peer", "127.0.0.1:1", "--peer-protocol", "iperf2", "--iperf2-header", "seq64"))
                .isEqualTo(Linerate.USAGE);
        assertThat(err3.toString()).contains("--iperf2-header seq64 applies");
    }

    @Test
    void batchIsRefusedForAUdpSearch() {
        StringWriter err = new StringWriter();
        assertThat(run(err, "search", "--peer", "127.0.0.1:1", "--batch", "5")).isEqualTo(Linerate.USAGE);
        assertThat(err.toString()).contains("--batch 5 sets frames per send call of a search over raw frames");
    }
}
