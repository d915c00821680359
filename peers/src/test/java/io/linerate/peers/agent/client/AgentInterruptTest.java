package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.agent.server.AgentStopTest;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The thread running a stream with the agent is interrupted (as SIGINT does in the CLI) on this
 * end's first interval of a 30 s stream: both ends close their windows at once, and the result
 * holds both ends' counts until then, marked interrupted; the agent's threads end with it.
 */
@Timeout(60)
class AgentInterruptTest {
    private static final Duration LONG = Duration.ofSeconds(30);
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

    /** Runs a 30 s stream and interrupts the running thread on this end's first interval. */
    private RemoteStreamResult interrupted(Protocol p, boolean reverse) throws Exception {
        TransferSpec spec = AgentStreamTest.spec(agent, p).duration(LONG).warmup(Duration.ZERO)
                .rateBitsPerSecond(p == Protocol.UDP ? 20_000_000 : 0).build();
        Thread runner = Thread.currentThread();
        AtomicBoolean sent = new AtomicBoolean();
        IntervalListener interruptOnFirst = s -> {
            if (sent.compareAndSet(false, true)) {
                runner.interrupt();
            }
        };
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(),
                new RemoteOptions(Optional.empty(), reverse))) {
            RemoteStreamResult r = t.runBothEnds(interruptOnFirst);
            assertThat(Thread.interrupted()).as("the run took the interrupt").isFalse();
            return r;
        }
    }

    @Test
    void tcpForwardKeepsBothEndsCountsMarkedInterrupted() throws Exception {
        RemoteStreamResult r = interrupted(Protocol.TCP, false);

        assertThat(r.interrupted()).isTrue();
        assertThat(r.local().interrupted()).isTrue();
        // the agent's window closed on the stop, or before it at the end of the stream this end's sender ended
        assertThat(r.local().bytes()).isPositive();
        // the agent reads this end's stream to its end: it counted every byte sent
        assertThat(r.remote().bytes()).isEqualTo(r.local().bytes());
        assertThat(r.local().windowNanos()).isLessThan(LONG.toNanos());
        assertThat(r.transfer().interrupted()).isTrue();
    }

    @Test
    void tcpReverseKeepsBothEndsCountsMarkedInterrupted() throws Exception {
        RemoteStreamResult r = interrupted(Protocol.TCP, true);

        assertThat(r.interrupted()).isTrue();
        assertThat(r.remote().interrupted()).isTrue();
        assertThat(r.local().bytes()).isPositive();
        // this host received only bytes the agent sent
        assertThat(r.local().bytes()).isLessThanOrEqualTo(r.remote().bytes());
        assertThat(r.remote().windowNanos()).isLessThan(LONG.toNanos());
    }

    @Test
    void udpForwardKeepsBothEndsCountsMarkedInterrupted() throws Exception {
        RemoteStreamResult r = interrupted(Protocol.UDP, false);

        assertThat(r.interrupted()).isTrue();
        assertThat(r.remote().interrupted()).isTrue();
        assertThat(r.local().messages()).isPositive();
        // distinct datagrams received never exceed those sent
        assertThat(r.remote().messages()).isLessThanOrEqualTo(r.local().messages());
        assertThat(r.local().windowNanos()).isLessThan(LONG.toNanos());
    }

    @Test
    void theAgentLeavesNoThreadBehindOnceClosed() throws Exception {
        interrupted(Protocol.TCP, true);
        agent.close();

        AgentStopTest.waitUntil(() -> linerateThreads() == 0);
        assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                .noneMatch(n -> n.startsWith("linerate-"));
    }

    private static long linerateThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(t -> t.getName().startsWith("linerate-")).count();
    }
}
