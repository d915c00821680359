package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RrResult;
import io.linerate.peers.agent.client.RemoteLatency;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.RemotePingPongResult;
import io.linerate.peers.server.ServedCounts;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent reports each ping-pong and request/response session it serves to its
 * {@link ServedTestListener}, as it does a stream: the start naming the client and the test, then
 * one {@link ServedCounts} with its own counts, the ones its client's result holds, and how the
 * session ended.
 */
@Timeout(60)
class AgentLatencyServedTest {
    /** At most 100 round trips after 20, within 50..300 ms: short on a busy host. */
    private static final IterationPolicy SHORT = new IterationPolicy(Duration.ofMillis(50), Duration.ofMillis(300), 20, 100,
            Duration.ZERO, 0);

    private final BlockingQueue<Object> events = new LinkedBlockingQueue<>();
    private volatile Consumer<ServedStart> onStart = s -> { };
    private Agent agent;

    private final ServedTestListener record = new ServedTestListener() {
        @Override
        public void onStart(ServedStart start) {
            events.add(start);
            onStart.accept(start);
        }

        @Override
        public void onInterval(ServedInterval interval) {
            events.add(interval);
        }

        @Override
        public void onEnd(ServedSummary summary) {
            events.add(summary);
        }

        @Override
        public void onCounts(ServedCounts counts) {
            events.add(counts);
        }
    };

    private void startAgent() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(), AgentLimits.defaults(),
                Duration.ofSeconds(5)), record);
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    private Endpoint peer() {
        return Endpoint.remote("127.0.0.1", agent.address().getPort());
    }

    /**
     * Runs a spec the agent stops under, once the session is reported started.
     *
     * @return the client's error; the session's start report is taken, its counts are the next report
     */
    private TransferException stoppedUnder(MeasurementSpec spec) throws Exception {
        Object outcome;
        try {
            outcome = run(spec);
        } catch (TransferException e) {
            outcome = e;
        }
        assertThat(outcome).isInstanceOf(TransferException.class);
        nextStart();
        return (TransferException) outcome;
    }

    private static Object run(MeasurementSpec spec) throws Exception {
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), RemoteOptions.defaults())) {
            return m.run();
        }
    }

    /** @return the next event, waiting at most 30 s: the agent reports its counts before it sends them */
    private Object next() throws InterruptedException {
        Object e = events.poll(30, TimeUnit.SECONDS);
        assertThat(e).as("an event within 30 s").isNotNull();
        return e;
    }

    private ServedStart nextStart() throws InterruptedException {
        Object e = next();
        assertThat(e).isInstanceOf(ServedStart.class);
        return (ServedStart) e;
    }

    private ServedCounts nextCounts() throws InterruptedException {
        Object e = next();
        assertThat(e).isInstanceOf(ServedCounts.class);
        return (ServedCounts) e;
    }

    @Test
    void aTcpPingPongIsReportedWithTheAgentsEchoesOfEveryRoundTrip() throws Exception {
        startAgent();
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(32)).policy(SHORT)
                .timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RemotePingPongResult r = (RemotePingPongResult) run(spec);

        ServedStart start = nextStart();
        assertThat(start.test()).isEqualTo(1);
        assertThat(start.client().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(start.what()).isEqualTo("linerate tcp ping-pong, up to 32 bytes");
        ServedCounts counts = nextCounts();
        assertThat(counts.test()).isEqualTo(1);
        assertThat(counts.end()).isEqualTo(ServedSummary.DONE);
        long trips = r.local().roundTrips();
        assertThat(trips).isPositive();
        // a 32 B message is one segment, sent once the previous answer came back: one read per round
        // trip, and 32 B echoed per round trip
        assertThat(counts.counts()).containsExactly(
                Map.entry(ServedCounts.ECHOES, trips), Map.entry(ServedCounts.BYTES_ECHOED, 32 * trips));
        // the counts the client was sent are the ones reported
        assertThat(counts.counts().get(ServedCounts.ECHOES)).isEqualTo(r.agentEchoes());
        assertThat(counts.counts().get(ServedCounts.BYTES_ECHOED)).isEqualTo(r.agentEchoedBytes());
        // no stream lines for a ping-pong
        assertThat(events).isEmpty();
    }

    @Test
    void aRequestResponseRunIsReportedWithTheAgentsAcceptsAndResponsesServed() throws Exception {
        startAgent();
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(100).responseBytes(200).warmup(Duration.ofMillis(50))
                .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RrResult r = (RrResult) run(spec);

        ServedStart start = nextStart();
        assertThat(start.what()).isEqualTo("linerate tcp_rr, 2 flow(s), 100 B requests, 200 B responses");
        ServedCounts counts = nextCounts();
        assertThat(counts.test()).isEqualTo(start.test());
        assertThat(counts.end()).isEqualTo(ServedSummary.DONE);
        assertThat(counts.counts()).containsOnlyKeys(ServedCounts.ACCEPTS, ServedCounts.SERVED);
        // one connection per flow; every completed transaction's response was served first
        assertThat(counts.counts().get(ServedCounts.ACCEPTS)).isEqualTo(2L).isEqualTo(r.accepts());
        assertThat(counts.counts().get(ServedCounts.SERVED)).isEqualTo(r.served())
                .isGreaterThanOrEqualTo(r.completed());
        assertThat(r.completed()).isPositive();
        assertThat(events).isEmpty();
    }

    @Test
    void aPingPongTheAgentStopsUnderIsReportedAsStoppedWithTheReason() throws Exception {
        startAgent();
        // the agent stops once the session is reported started; close() waits for the session: another thread
        onStart = s -> CompletableFuture.runAsync(agent::close);
        PingPongSpec spec = PingPongSpec.builder().sizes(List.of(32))
                .policy(new IterationPolicy(Duration.ofSeconds(20), Duration.ofSeconds(30), 1, Long.MAX_VALUE,
                        Duration.ZERO, 0))
                .timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        TransferException outcome = stoppedUnder(spec);
        ServedCounts counts = nextCounts();
        assertThat(counts.end()).isEqualTo(AgentSession.STOPPING);
        // the client's error names the agent's counts: the same ones
        assertThat(outcome.getMessage()).contains("the agent echoed "
                + counts.counts().get(ServedCounts.ECHOES) + " times (" + counts.counts().get(ServedCounts.BYTES_ECHOED)
                + " bytes)");
    }

    @Test
    void aRequestResponseRunTheAgentStopsUnderIsReportedAsStoppedWithTheReason() throws Exception {
        startAgent();
        onStart = s -> CompletableFuture.runAsync(agent::close);
        RrSpec spec = RrSpec.builder().warmup(Duration.ZERO).duration(Duration.ofSeconds(30))
                .timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        TransferException outcome = stoppedUnder(spec);
        ServedCounts counts = nextCounts();
        assertThat(counts.end()).isEqualTo(AgentSession.STOPPING);
        assertThat(outcome.getMessage()).contains("the agent accepted "
                + counts.counts().get(ServedCounts.ACCEPTS) + " connections and served "
                + counts.counts().get(ServedCounts.SERVED) + " responses");
    }
}
