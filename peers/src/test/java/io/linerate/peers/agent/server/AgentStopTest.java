package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.peers.agent.client.AgentStoppedException;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemoteLatency;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.RemoteStreamTransfer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An agent stopped (as SIGTERM or SIGINT stop {@code linerate serve}: {@link Agent#close()}) while
 * a session runs: its client gets the counts so far and the reason, not only an error.
 */
@Timeout(60)
public class AgentStopTest {
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    /** A 30 s stream: the agent is stopped on this end's first interval, long before it ends. */
    private AgentStoppedException stoppedStream(Protocol p, boolean reverse) {
        TransferSpec spec = AgentStreamTest.spec(agent, p).duration(Duration.ofSeconds(30)).warmup(Duration.ZERO)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).build();
        AtomicBoolean stopping = new AtomicBoolean();
        IntervalListener stopOnFirst = s -> {
            if (stopping.compareAndSet(false, true)) {
                // close() waits for the session, which needs this thread's end: stop from another thread
                CompletableFuture.runAsync(agent::close);
            }
        };
        Throwable[] thrown = {null};
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(),
                new RemoteOptions(Optional.empty(), reverse))) {
            t.runBothEnds(stopOnFirst);
        } catch (Throwable e) {
            thrown[0] = e;
        }
        assertThat(thrown[0]).isInstanceOf(AgentStoppedException.class);
        AgentStoppedException e = (AgentStoppedException) thrown[0];
        assertThat(e.agentReason()).contains("the agent is stopping");
        return e;
    }

    @Test
    void tcpForwardTheClientGetsTheAgentsCountsSoFar() {
        AgentStoppedException e = stoppedStream(Protocol.TCP, false);

        assertThat(e.localBytes()).isPositive();
        // the agent received only bytes this host sent
        assertThat(e.remoteBytes()).isPositive().isLessThanOrEqualTo(e.localBytes());
        // a TCP receiver counts bytes, not the sender's writes: its count is unknown, not 0
        assertThat(e.remoteMessages()).isEqualTo(-1);
        assertThat(e.getMessage()).endsWith("the agent " + e.remoteBytes() + " bytes (writes unknown: a TCP receiver "
                + "counts bytes, not the sender's writes)").doesNotContain("0 writes");
    }

    @Test
    void tcpReverseTheClientGetsTheAgentsCountsSoFar() {
        AgentStoppedException e = stoppedStream(Protocol.TCP, true);

        assertThat(e.remoteBytes()).isPositive();
        // this host received only bytes the agent sent
        assertThat(e.localBytes()).isLessThanOrEqualTo(e.remoteBytes());
        // the agent's sender counts its writes
        assertThat(e.remoteMessages()).isPositive();
        assertThat(e.getMessage()).endsWith("the agent " + e.remoteBytes() + " bytes (" + e.remoteMessages()
                + " writes or datagrams)");
    }

    @Test
    void udpForwardTheClientGetsTheAgentsCountsSoFar() {
        AgentStoppedException e = stoppedStream(Protocol.UDP, false);

        // distinct datagrams received never exceed the bytes' datagrams sent: 1200 B each
        assertThat(e.remoteBytes()).isLessThanOrEqualTo(e.localBytes());
        assertThat(e.remoteMessages() * 1200).isEqualTo(e.remoteBytes());
    }

    @Test
    void pingPongTheClientIsToldTheAgentStoppedWithBothCounts() {
        PingPongSpec spec = PingPongSpec.builder().sizes(List.of(32))
                .policy(new IterationPolicy(Duration.ofSeconds(20), Duration.ofSeconds(30), 1, Long.MAX_VALUE,
                        Duration.ZERO, 0))
                .timeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .build();
        Object outcome = runUntilTheAgentStops(spec);
        assertThat(outcome).isInstanceOf(io.linerate.core.TransferException.class);
        assertThat(((Exception) outcome).getMessage()).contains(AgentSession.STOPPING)
                .contains("round trips, the agent echoed");
    }

    @Test
    void requestResponseTheClientIsToldTheAgentStoppedWithItsCounts() {
        RrSpec spec = RrSpec.builder().warmup(Duration.ZERO).duration(Duration.ofSeconds(30))
                .timeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .build();
        Object outcome = runUntilTheAgentStops(spec);
        assertThat(outcome).isInstanceOf(io.linerate.core.TransferException.class);
        assertThat(((Exception) outcome).getMessage()).contains(AgentSession.STOPPING)
                .contains("connections and served");
    }

    /** Runs {@code spec} against the agent, stops the agent once the session is up, and returns what the run ended with. */
    private Object runUntilTheAgentStops(io.linerate.core.MeasurementSpec spec) {
        CompletableFuture<Object> run = CompletableFuture.supplyAsync(() -> {
            try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), RemoteOptions.defaults())) {
                return m.run();
            } catch (Exception e) {
                return e;
            }
        });
        waitUntil(() -> agent.activeSessions() == 1);
        agent.close();
        return run.join();
    }

    /** Polls a condition every 10 ms for at most 20 s; the assertions after it say what failed. */
    public static void waitUntil(java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(10_000_000L);
        }
    }
}
