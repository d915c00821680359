package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.ServedCounts;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code pingpong --peer} and {@code rr --peer} against an agent in this JVM. */
@Timeout(60)
class RemoteLatencyCommandTest {
    static final byte[] SECRET = "pingpong-secret".getBytes(StandardCharsets.US_ASCII);

    @Test
    void pingpongWithPeerTimesRoundTripsAgainstTheAgentsEchoEnd(@TempDir Path dir) throws Exception {
        Path secret = Files.write(dir.resolve("secret"), SECRET);
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "pingpong", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--secret-file", secret.toString(), "--protocol", "udp",
                    "--sizes", "32", "--minms", "20", "--maxms", "200", "--miniter", "10", "--maxiter", "50",
                    "--warmupms", "0", "--warmupiter", "0");

            assertThat(code).as(err.toString()).isZero();
            assertThat(out.toString()).contains("# remote: the agent at 127.0.0.1:" + agent.address().getPort() + " echoed")
                    .doesNotContain("# invalid");
        }
    }

    @Test
    void rrWithPeerReportsTheAgentsServerCounts() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "rr", "--peer",
                    "127.0.0.1:" + agent.address().getPort(), "--duration", "200ms", "--warmup", "50ms");

            assertThat(code).as(err.toString()).isZero();
            // one flow: one connection
            assertThat(out.toString()).contains("accepted 1 connections and served");
        }
    }

    /** Keeps the agent's counts of each session it served, as its listener hears them. */
    private static final class AgentCounts implements ServedTestListener {
        final BlockingQueue<ServedCounts> counts = new LinkedBlockingQueue<>();

        @Override
        public void onCounts(ServedCounts c) {
            counts.add(c);
        }

        /** @return the next session's counts; the agent reports them before it sends them to its client */
        Map<String, Long> next() throws InterruptedException {
            ServedCounts c = counts.poll(30, TimeUnit.SECONDS);
            assertThat(c).as("the agent's counts within 30 s").isNotNull();
            assertThat(c.end()).isEqualTo(ServedSummary.DONE);
            return c.counts();
        }
    }

    @Test
    void rrWithPeerJsonAndKtapCarryTheAgentsServerCounts() throws Exception {
        AgentCounts heard = new AgentCounts();
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)), heard)) {
            String at = "127.0.0.1:" + agent.address().getPort();
            StringWriter json = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(json), new PrintWriter(err), "rr", "--peer", at, "--flows", "2",
                    "--duration", "200ms", "--warmup", "50ms", "--json");
            assertThat(code).as(err.toString()).isZero();
            Map<String, Long> agentsOwn = heard.next();
            JsonNode server = new ObjectMapper().readTree(json.toString()).path("detail").path("server");
            // two flows, one connection each; the responses the agent counted
            assertThat(server.path("accepts").asLong(-1)).isEqualTo(2).isEqualTo(agentsOwn.get(ServedCounts.ACCEPTS));
            assertThat(server.path("served").asLong(-1)).isPositive().isEqualTo(agentsOwn.get(ServedCounts.SERVED));
            assertThat(server.path("remote").isBoolean()).isTrue();
            assertThat(server.path("remote").asBoolean()).isTrue();

            StringWriter ktap = new StringWriter();
            code = Linerate.execute(new PrintWriter(ktap), new PrintWriter(err), "rr", "--peer", at, "--flows", "2",
                    "--duration", "200ms", "--warmup", "50ms", "--ktap");
            assertThat(code).as(err.toString()).isZero();
            agentsOwn = heard.next();
            assertThat(ktap.toString()).contains("\n# remote: the agent at " + at + " accepted 2 connections and served "
                    + agentsOwn.get(ServedCounts.SERVED) + " responses; ");
        }
    }

    @Test
    void pingpongWithPeerKtapCarriesTheAgentsEchoCounts() throws Exception {
        AgentCounts heard = new AgentCounts();
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)), heard)) {
            String at = "127.0.0.1:" + agent.address().getPort();
            StringWriter ktap = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(ktap), new PrintWriter(err), "pingpong", "--peer", at, "--ktap",
                    "--protocol", "udp", "--sizes", "32", "--minms", "20", "--maxms", "200", "--miniter", "10",
                    "--maxiter", "50", "--warmupms", "0", "--warmupiter", "0");
            assertThat(code).as(err.toString()).isZero();
            Map<String, Long> agentsOwn = heard.next();
            long echoes = agentsOwn.get(ServedCounts.ECHOES);
            // one datagram of 32 B per round trip, each echoed once
            assertThat(agentsOwn.get(ServedCounts.BYTES_ECHOED)).isEqualTo(32 * echoes);
            assertThat(ktap.toString()).contains("\n# remote: the agent at " + at + " echoed " + echoes + " times, "
                    + 32 * echoes + " bytes, for " + echoes + " round trips of " + 32 * echoes + " bytes")
                    .contains("\n# precision: ").contains("\nok 1 pingpong_udp\n");
        }
    }

    @Test
    void theSecretAppearsInNoOutputOfPingpongOrRr(@TempDir Path dir) throws Exception {
        Path secret = Files.write(dir.resolve("secret"), SECRET);
        String secretText = new String(SECRET, StandardCharsets.US_ASCII);
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            String at = "127.0.0.1:" + agent.address().getPort();
            for (String format : new String[] {"text", "json", "ktap"}) {
                StringWriter out = new StringWriter();
                StringWriter err = new StringWriter();
                int pingpong = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "pingpong", "--peer", at,
                        "--secret-file", secret.toString(), "--format", format, "--sizes", "16", "--minms", "20",
                        "--maxms", "200", "--miniter", "10", "--maxiter", "50", "--warmupms", "0", "--warmupiter", "0");
                int rr = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "rr", "--peer", at,
                        "--secret-file", secret.toString(), "--format", format, "--duration", "200ms", "--warmup", "50ms");

                assertThat(List.of(pingpong, rr)).as(format + ": " + err).containsOnly(0);
                // no format shows the secret; the text names the agent by its address alone
                assertThat(out.toString()).as(format).isNotEmpty().doesNotContain(secretText);
                if (format.equals("text")) {
                    assertThat(out.toString()).contains("# remote: the agent at " + at + " echoed",
                            "# remote: the agent at " + at + " accepted 1 connections");
                }
                assertThat(err.toString()).as(format).doesNotContain(secretText);
            }
        }
    }

    @Test
    void aSecretWithoutPeerIsBadUsage() {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), "rr", "--secret-file", "secret");

        assertThat(code).isEqualTo(2);
        assertThat(err.toString()).contains("--secret-file applies with --peer HOST:PORT only");
    }
}
