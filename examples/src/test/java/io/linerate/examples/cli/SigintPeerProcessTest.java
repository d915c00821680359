package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersLayout;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf3.Iperf3Agent;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import io.linerate.peers.server.AllowFrom;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in the middle of a stream through a peer, as a user gives it: SIGINT to a
 * {@code linerate stream --peer} JVM that is measuring against linerate's agent or linerate's
 * iperf3 server, both in this JVM, ends it with exit code 130 and one whole document, marked
 * interrupted, holding the bytes counted until then; the server's session ends with it.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SigintPeerProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** More than a JVM writes to start (files, output): a stream's payload handed to its socket. */
    private static final long STREAMING_BYTES = 64L << 20;

    @TempDir
    Path tmp;

    private LinerateChildren children;

    @BeforeEach
    void children() {
        children = new LinerateChildren(tmp);
    }

    @AfterEach
    void killChildren() throws InterruptedException {
        children.close();
    }

    /** Polls {@code done} every 10 ms, bounded; the assertions after it say what failed. */
    private static void waitUntil(BooleanSupplier done) {
        long deadline = System.nanoTime() + LinerateChildren.DEADLINE_NANOS;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(10_000_000L);
        }
    }

    private static Agent agent() throws Exception {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(), AgentLimits.defaults(),
                Duration.ofSeconds(10)));
    }

    /** A forward TCP stream of a minute with the agent, its live counters in {@code dir}, interrupted once it sends. */
    private Process interruptedAgentStream(Agent agent, Path dir, String format) throws Exception {
        Process p = children.start("stream", "--peer", "127.0.0.1:" + agent.address().getPort(), "--duration", "60s",
                "--warmup", "0s", "--counters-dir", dir.toString(), format);
        Path file = dir.resolve(CountersLayout.fileName(p.pid()));
        children.awaitMeasuring(p, () -> LinerateChildren.transferCounter(file, CounterType.BYTES_SENT) > 0);
        children.interrupt(p);
        assertThat(p.exitValue()).as(children.err(p)).isEqualTo(Linerate.INTERRUPTED);
        return p;
    }

    /** The agent's session ended with the client's, and once closed it leaves no thread of its own. */
    private static void assertAgentLeftNothing(Agent agent) {
        waitUntil(() -> agent.activeSessions() == 0);
        assertThat(agent.activeSessions()).isZero();
        agent.close();
        waitUntil(() -> agentThreads().isEmpty());
        assertThat(agentThreads()).isEmpty();
    }

    private static List<String> agentThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("linerate-agent") || n.startsWith("linerate-control")).toList();
    }

    @Test
    void agentStreamJsonHoldsBothEndsCountsMarkedInterrupted() throws Exception {
        Path dir = tmp.resolve("counters");
        Agent agent = agent();
        try {
            Process p = interruptedAgentStream(agent, dir, "--json");
            String out = children.out(p);
            assertThat(out.strip().lines()).as("one JSON line; stderr: %s", children.err(p)).hasSize(1);
            JsonNode r = JSON.readTree(out);
            assertThat(r.get("interrupted").asBoolean()).isTrue();
            JsonNode d = r.get("detail");
            assertThat(d.get("interrupted").asBoolean()).isTrue();
            long sent = d.get("local").get("bytes").asLong();
            assertThat(sent).isPositive();
            // the agent answered the stop: it read this end's stream to its end
            assertThat(d.get("remote").get("bytes").asLong()).isEqualTo(sent);
            assertThat(d.get("duration_s").asDouble()).as("the window ended before its bound").isLessThan(60);
            assertThat(dir).isEmptyDirectory();
            assertAgentLeftNothing(agent);
        } finally {
            agent.close();
        }
    }

    @Test
    void agentStreamKtapEndsWithItsTestNotOkInterrupted() throws Exception {
        Path dir = tmp.resolve("counters");
        Agent agent = agent();
        try {
            Process p = interruptedAgentStream(agent, dir, "--ktap");
            List<String> lines = children.out(p).lines().toList();
            assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
            assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok ")).singleElement()
                    .asString().startsWith("not ok 1 ").endsWith(" # interrupted");
            assertThat(lines.get(lines.size() - 1)).isEqualTo("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0");
            assertThat(dir).isEmptyDirectory();
            assertAgentLeftNothing(agent);
        } finally {
            agent.close();
        }
    }

    /** A forward TCP test of a minute with linerate's iperf3 server, interrupted once its payload flows. */
    private Process interruptedIperf3Stream(Iperf3Agent server, String format) throws Exception {
        Process p = children.start("stream", "--peer", "127.0.0.1:" + server.address().getPort(), "--peer-protocol",
                "iperf3", "--duration", "60s", format);
        children.awaitMeasuring(p, () -> server.activeSessions() == 1
                && LinerateChildren.procIo(p, "wchar") > STREAMING_BYTES);
        children.interrupt(p);
        assertThat(p.exitValue()).as(children.err(p)).isEqualTo(Linerate.INTERRUPTED);
        // CLIENT_TERMINATE ended the server's session
        waitUntil(() -> server.activeSessions() == 0);
        assertThat(server.activeSessions()).isZero();
        return p;
    }

    private static Iperf3Agent iperf3Server() throws Exception {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getLoopbackAddress(), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), Duration.ofSeconds(10)));
    }

    @Test
    void iperf3StreamJsonHoldsLineratesCountsMarkedInterrupted() throws Exception {
        try (Iperf3Agent server = iperf3Server()) {
            Process p = interruptedIperf3Stream(server, "--json");
            String out = children.out(p);
            assertThat(out.strip().lines()).as("one JSON line; stderr: %s", children.err(p)).hasSize(1);
            JsonNode r = JSON.readTree(out);
            assertThat(r.get("interrupted").asBoolean()).isTrue();
            JsonNode d = r.get("detail");
            assertThat(d.get("interrupted").asBoolean()).isTrue();
            assertThat(d.get("local").get("bytes").asLong()).isGreaterThan(0);
            assertThat(d.get("local").get("seconds").asDouble()).isLessThan(60);
            assertThat(d.get("notes").get(0).asText()).contains("CLIENT_TERMINATE");
        }
    }

    @Test
    void iperf3StreamKtapEndsWithItsTestNotOkInterrupted() throws Exception {
        try (Iperf3Agent server = iperf3Server()) {
            Process p = interruptedIperf3Stream(server, "--ktap");
            List<String> lines = children.out(p).lines().toList();
            assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
            assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok ")).singleElement()
                    .asString().startsWith("not ok 1 ").endsWith(" # interrupted");
            assertThat(lines.get(lines.size() - 1)).isEqualTo("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0");
        }
    }
}
