package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.testsupport.Iperf3Server;
import io.linerate.testsupport.IperfBinary;
import io.linerate.testsupport.PeerTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stream} against each kind of peer on the one road: text, {@code --json} and {@code --ktap}
 * each come out whole (a header, interval lines and a summary; one JSON object with both ends'
 * metrics; one KTAP document with the far end's metrics), and an agent's secret appears in none of
 * them, nor in what is logged.
 */
@Timeout(180)
class PeerStreamOutputsTest {
    private static final String NL = System.lineSeparator();

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        return new Run(code, out.toString(), err.toString());
    }

    private static List<String> lines(String text) {
        return List.of(text.split(NL));
    }

    private static void assertWholeKtap(Run r, String test) {
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("KTAP version 1" + NL + "1..1" + NL)
                .contains(NL + "ok 1 " + test + NL).endsWith("# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0" + NL);
    }

    private static JsonNode wholeJson(Run r) throws Exception {
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(lines(r.out().strip())).hasSize(1);
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void iperf3RoadWritesTextJsonAndKtapWhole() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        try (Iperf3Server srv = Iperf3Server.start(false)) {
            String peer = "127.0.0.1:" + srv.port;
            String[] common = {"stream", "--peer", peer, "--peer-protocol", "iperf3", "--duration", "1s",
                    "--interval", "250ms", "--rate", "20M", "--payload", "16K"};

            Run text = run(concat(common));
            assertThat(text.code()).as(text.err()).isZero();
            List<String> t = lines(text.out());
            assertThat(t.get(0)).startsWith("# linerate ").contains("stream against iperf3 at " + peer + ": tcp4 ");
            // interval lines of what linerate sent, then the summary of both ends
            assertThat(t).anyMatch(l -> l.matches(" ?\\d+\\.\\d\\d- ?\\d+\\.\\d\\d sec  \\d+ Bytes  .*bits/sec"));
            assertThat(t).contains("- - - - - - - - - - - - - - - - - - - - - - - - -");
            assertThat(t).anyMatch(l -> l.startsWith("local  sent ")).anyMatch(l -> l.startsWith("remote received "))
                    .anyMatch(l -> l.startsWith("local  tcp4_sent_mbps = ")).anyMatch(l -> l.startsWith("remote tcp4_mbps = "));

            JsonNode j = wholeJson(run(concat(common, "--json")));
            assertThat(j.path("detail").path("peer_protocol").asText()).isEqualTo("iperf3");
            assertThat(j.path("metrics").findValuesAsText("host")).contains("local", "remote");

            Run ktap = run(concat(common, "--ktap"));
            assertWholeKtap(ktap, "tcp4");
            assertThat(ktap.out()).contains("# linerate ").contains("stream against iperf3 at " + peer)
                    .contains("\"host\":\"remote\"").contains("\"name\":\"tcp4_mbps\"");

            // receiving, the lines are what linerate received: one per 250 ms of the 1 s test, and a last partial one
            Run reverse = run(concat(common, "--protocol", "udp", "--reverse"));
            assertThat(reverse.code()).as(reverse.err()).isZero();
            List<String> received = lines(reverse.out()).stream().filter(l -> l.contains(" datagrams received  ")).toList();
            assertThat(received).hasSizeBetween(1, 5);
            assertThat(lines(reverse.out())).anyMatch(l -> l.startsWith("local  received "))
                    .anyMatch(l -> l.startsWith("local  udp4_lost_pct = "));
        }
    }

    @Test
    void iperf2UdpRoadWritesTextJsonAndKtapWithTheFarEndsMetrics() throws Exception {
        PeerTool.require("iperf", "iperf");
        List<Run> runs = new ArrayList<>();
        // one `iperf -s -u` a run: iperf 2.1.8's server is not reliable across many tests in one process
        for (String format : new String[] {"", "--json", "--ktap"}) {
            int port = IperfBinary.freePort();
            try (IperfBinary srv = IperfBinary.server(port, true)) {
                runs.add(run(concat(new String[] {"stream", "--peer", "127.0.0.1:" + port, "--peer-protocol", "iperf2",
                        "--protocol", "udp", "--duration", "1s", "--interval", "250ms", "--rate", "10M", "--payload", "1000"},
                        format.isEmpty() ? new String[0] : new String[] {format})));
            }
        }
        Run text = runs.get(0);
        assertThat(text.code()).as(text.err()).isZero();
        List<String> t = lines(text.out());
        assertThat(t.get(0)).startsWith("# linerate ").contains("stream against iperf 2 at 127.0.0.1:");
        assertThat(t).anyMatch(l -> l.contains(" datagrams sent  jitter n/a  loss n/a (the receiver counts it)"));
        assertThat(t).anyMatch(l -> l.startsWith("local  sent ")).anyMatch(l -> l.startsWith("remote received "))
                .anyMatch(l -> l.startsWith("remote udp4_lost_pct = ")).anyMatch(l -> l.startsWith("remote udp4_jitter_ms = "));

        JsonNode j = wholeJson(runs.get(1));
        assertThat(j.path("metrics").findValuesAsText("host")).contains("local", "remote");

        Run ktap = runs.get(2);
        assertWholeKtap(ktap, "udp4");
        assertThat(ktap.out()).contains("stream against iperf 2 at 127.0.0.1:")
                .contains("\"host\":\"remote\",\"labels\":{\"direction\":\"forward\"},\"name\":\"udp4_lost_pct\"")
                .contains("\"name\":\"udp4_jitter_ms\"").contains("\"name\":\"udp4_mbps\"");

        // iperf 2's TCP server sends no report: the document is whole, with this host's figures and why the far end's are absent
        int port = IperfBinary.freePort();
        Run tcp;
        try (IperfBinary srv = IperfBinary.server(port, false)) {
            tcp = run("stream", "--peer", "127.0.0.1:" + port, "--peer-protocol", "iperf2", "--duration", "500ms",
                    "--rate", "10M", "--ktap");
        }
        assertWholeKtap(tcp, "tcp4");
        assertThat(tcp.out()).contains("# note: iperf 2's TCP server sends no report: the far end's figures (host remote) "
                + "are absent").contains("\"host\":\"local\"").doesNotContain("\"host\":\"remote\"");
    }

    @Test
    void theAgentsSecretIsInNoOutputAndNoLog(@TempDir Path dir) throws Exception {
        String secret = "s3cret-road-0d41c9";
        Path file = Files.writeString(dir.resolve("secret"), secret, StandardCharsets.US_ASCII);
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        PrintStream originalErr = System.err;
        List<Run> runs = new ArrayList<>();
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0,
                Optional.of(secret.getBytes(StandardCharsets.US_ASCII)), AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
            String[] common = {"stream", "--peer", peer, "--secret-file", file.toString(), "--duration", "300ms",
                    "--interval", "100ms", "--warmup", "0s"};
            for (String[] extra : List.of(new String[0], new String[] {"--json"}, new String[] {"--ktap"},
                    new String[] {"--bidir"}, new String[] {"--parallel", "2", "--json"}, new String[] {"--reverse", "--ktap"})) {
                runs.add(run(concat(common, extra)));
            }
        } finally {
            System.setErr(originalErr);
        }
        assertThat(runs).allSatisfy(r -> {
            assertThat(r.code()).as(r.err()).isZero();
            assertThat(r.out()).contains(":").doesNotContain(secret);
            assertThat(r.err()).doesNotContain(secret);
        });
        assertThat(runs.get(0).out()).contains("# linerate ").contains("# local  sent").contains("# remote received");
        assertThat(runs.get(2).out()).contains("ok 1 tcp4");
        assertThat(logged.toString(StandardCharsets.UTF_8)).doesNotContain(secret);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
