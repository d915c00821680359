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
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code stream --peer --bidir} over 127.0.0.1, where linerate-native is on the class path (so both
 * senders' {@code TCP_INFO} is read through sock_diag): each direction prints its sender's
 * {@code # tcp_info} line, the agent's named by its host, and the agent's per-interval figures
 * follow the summary, as they arrive with its counts; the JSON's reverse intervals carry them.
 */
@Timeout(60)
class PeerTcpInfoTextTest {
    private static final String[] RUN = {"--duration", "300ms", "--warmup", "100ms", "--interval", "100ms", "--bidir"};

    private static String run(String peer, String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        String[] args = java.util.stream.Stream.concat(java.util.stream.Stream.of("stream", "--peer", peer),
                java.util.stream.Stream.concat(java.util.Arrays.stream(RUN), java.util.Arrays.stream(more)))
                .toArray(String[]::new);
        int code = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args);
        assertThat(code).as(err.toString()).isZero();
        return out.toString();
    }

    @Test
    void eachDirectionNamesItsSenderAndTheAgentsIntervalsFollowTheSummary() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            String peer = "127.0.0.1:" + agent.address().getPort();
            List<String> lines = run(peer).lines().toList();

            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("[fwd] # tcp_info (sender): retr "));
            assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("[rev] # tcp_info (sender, the agent at 127.0.0.1): retr "));
            int header = indexOf(lines, "[rev] # tcp_info (sender, the agent at 127.0.0.1) per interval, sent with its "
                    + "counts at the end of the run, ");
            assertThat(header).as(String.join("\n", lines)).isNotNegative();
            // then this host's reverse intervals again, each with the agent's Retr and Cwnd, commented out
            assertThat(lines.get(header + 1)).matches("\\[rev] # +\\d+\\.\\d\\d- *\\d+\\.\\d\\d sec .*  Retr +\\d+  Cwnd .*");

            JsonNode reverse = new ObjectMapper().readTree(run(peer, "--json")).get("detail").get("reverse");
            assertThat(reverse.get("tcp_intervals").get("host").asText()).isEqualTo("remote");
            int joined = reverse.get("tcp_intervals").get("joined").asInt();
            assertThat(joined).isPositive();
            int withFigures = 0;
            for (JsonNode i : reverse.get("intervals")) {
                withFigures += i.has("retransmits") && i.get("cwnd_bytes").asLong() > 0 ? 1 : 0;
            }
            assertThat(withFigures).isEqualTo(joined);
        }
    }

    private static int indexOf(List<String> lines, String prefix) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
