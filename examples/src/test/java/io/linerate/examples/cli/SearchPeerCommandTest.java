package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code search --peer} against an agent in this JVM that demands a shared secret. */
@Timeout(60)
class SearchPeerCommandTest {
    private static final String SECRET = "search-secret-7f3a";

    @TempDir
    Path dir;

    private static Agent agentWithSecret() throws java.io.IOException {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0,
                Optional.of(SECRET.getBytes(StandardCharsets.US_ASCII)), AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    private record Run(int exit, String out, String err) {}

    private static Run search(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] all = new String[args.length + 1];
        all[0] = "search";
        System.arraycopy(args, 0, all, 1, args.length);
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), all);
        return new Run(code, out.toString(), err.toString());
    }

    /** A short search at rates a loopback carries on any host: 1..2 Mbit/s of 1400-byte datagrams. */
    private static String[] shortSearch(String peer, String... more) {
        String[] base = {"--peer", peer, "--payload", "1400", "--min-rate", "1M", "--max-rate", "2M", "--trial", "200ms",
            "--warmup", "50ms", "--resolution", "40%"};
        String[] all = new String[base.length + more.length];
        System.arraycopy(base, 0, all, 0, base.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void withoutTheSecretTheSearchStopsBeforeAnyTrialWithExitTwoSayingWhatToPass() throws Exception {
        try (Agent agent = agentWithSecret()) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            Run r = search(shortSearch(peer));

            assertThat(r.exit()).as(r.err()).isEqualTo(Linerate.USAGE);
            assertThat(r.err()).contains("the agent at " + peer + " requires a shared secret: pass --secret-file");
            // no trial ran: no table
            assertThat(r.out()).doesNotContain("offered_Mbps");
        }
    }

    @Test
    void aWrongSecretFailsTheFirstTrialWithExitOneNamingTheAgentAndTheRefusal() throws Exception {
        Path wrong = Files.writeString(dir.resolve("wrong"), "not-the-secret\n");
        try (Agent agent = agentWithSecret()) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            Run r = search(shortSearch(peer, "--secret-file", wrong.toString()));

            assertThat(r.exit()).as(r.err()).isEqualTo(Linerate.FAILED);
            assertThat(r.err()).contains("stream with the agent at " + peer + ": authentication failed: the answer to "
                    + "the challenge does not match this agent's secret");
        }
    }

    @Test
    void aMissingSecretFileIsBadUsageNamingTheFile() throws Exception {
        Path missing = dir.resolve("no-such-secret");
        Run r = search(shortSearch("127.0.0.1:1", "--secret-file", missing.toString()));

        assertThat(r.exit()).isEqualTo(Linerate.USAGE);
        assertThat(r.err()).contains("secret file " + missing + " is not a readable regular file");
    }

    @Test
    void withTheSecretTheTrialsRunThroughTheAgentAndTheSecretIsInNothingPrinted() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), SECRET + "\n");
        try (Agent agent = agentWithSecret()) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            Run r = search(shortSearch(peer, "--secret-file", secret.toString(), "--json"));

            // found (0) or, on a host so loaded that even 1 Mbit/s lost a datagram on loopback, not found (1):
            // either way the trials ran through the agent and the result names it
            assertThat(r.exit()).as(r.err()).isIn(Linerate.OK, Linerate.FAILED);
            JsonNode j = new ObjectMapper().readTree(r.out());
            assertThat(j.get("peer").asText()).isEqualTo(peer);
            assertThat(j.get("direction").asText()).isEqualTo("forward");
            assertThat(j.get("trials").size()).isPositive();
            for (JsonNode t : j.get("trials")) {
                // the agent's receiver counted each trial: sent = received + lost
                assertThat(t.get("sent").asLong()).isEqualTo(t.get("received").asLong() + t.get("lost").asLong());
            }
            assertThat(r.out() + r.err()).doesNotContain(SECRET);
        }
    }

    @Test
    void secretFileOrReverseWithoutPeerIsBadUsage() {
        for (String[] args : new String[][] {{"--secret-file", "secret"}, {"--reverse"}}) {
            Run r = search(args);
            assertThat(r.exit()).as(String.join(" ", args)).isEqualTo(Linerate.USAGE);
            assertThat(r.err()).contains("--secret-file and --reverse apply with --peer HOST:PORT only");
        }
    }

    @Test
    void peerWithARawFrameSearchOrATransportIsBadUsage() {
        Run raw = search("--peer", "127.0.0.1:1", "--tx", "veth0", "--rx", "veth1");
        assertThat(raw.exit()).isEqualTo(Linerate.USAGE);
        assertThat(raw.err()).contains("--peer 127.0.0.1:1 runs UDP trials through the agent; a search over raw frames");

        Run transport = search("--peer", "127.0.0.1:1", "--transport", "nio");
        assertThat(transport.exit()).isEqualTo(Linerate.USAGE);
        assertThat(transport.err()).contains("--transport nio picks a transport on this host");
    }

    @Test
    void aFamilyContradictingThePeerLiteralIsBadUsage() {
        Run r = search("--peer", "[::1]:1", "--family", "4");
        assertThat(r.exit()).isEqualTo(Linerate.USAGE);
        assertThat(r.err()).contains("--family 4 contradicts --peer [::1]:1, an IPv6 address");
    }
}
