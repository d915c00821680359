package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A transfer run a while after it was opened (a slow client JVM, or a caller that opens first):
 * the agent's ends start when this end runs, so its receiver's window holds the data. The pause
 * between open and run is the input of these tests, not a wait for a condition.
 */
@Timeout(120)
class AgentLateStartTest {
    /** Longer than warm-up + duration: an agent that started its ends at open closed its window before any data. */
    private static final long PAUSE_MILLIS = 1500;

    private static Agent agent(Duration handshake) throws Exception {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), handshake));
    }

    private static TransferSpec spec(Agent a, Protocol p) {
        return AgentStreamTest.spec(a, p).duration(Duration.ofSeconds(1)).warmup(Duration.ofMillis(250))
                .interval(Duration.ofMillis(250)).rateBitsPerSecond(p == Protocol.UDP ? 50_000_000 : 0).build();
    }

    private static RemoteStreamResult openPauseRun(Agent a, Protocol p, boolean reverse) throws Exception {
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec(a, p), Clock.system(),
                new RemoteOptions(Optional.of(AgentStreamTest.SECRET), reverse))) {
            Thread.sleep(PAUSE_MILLIS);
            return t.runBothEnds(IntervalListener.NONE);
        }
    }

    @Test
    void tcpForwardRunAfterAPauseIsValidAndTheAgentReceivedEveryByte() throws Exception {
        try (Agent a = agent(AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT)) {
            RemoteStreamResult r = openPauseRun(a, Protocol.TCP, false);
            assertThat(r.invalidReasons()).isEmpty();
            assertThat(r.remote().sender()).isFalse();
            assertThat(r.remote().bytes()).isEqualTo(r.local().bytes()).isPositive();
            assertThat(r.remote().windowBytes()).as("bytes in the agent's window").isPositive();
        }
    }

    @Test
    void tcpReverseRunAfterAPauseIsValidAndThisEndReceivedEveryByte() throws Exception {
        try (Agent a = agent(AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT)) {
            RemoteStreamResult r = openPauseRun(a, Protocol.TCP, true);
            assertThat(r.invalidReasons()).isEmpty();
            assertThat(r.remote().sender()).isTrue();
            assertThat(r.local().bytes()).isEqualTo(r.remote().bytes()).isPositive();
            assertThat(r.local().windowBytes()).as("bytes in this end's window").isPositive();
        }
    }

    @Test
    void udpForwardRunAfterAPauseIsValidAndEveryDatagramIsAccounted() throws Exception {
        try (Agent a = agent(AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT)) {
            RemoteStreamResult r = openPauseRun(a, Protocol.UDP, false);
            TransferResult t = r.transfer();
            assertThat(r.invalidReasons()).isEmpty();
            assertThat(t.udp()).hasValueSatisfying(u -> assertThat(u.datagramsReceived() + u.lost()).isEqualTo(u.datagramsSent()));
            assertThat(r.remote().windowMessages()).as("datagrams in the agent's window").isPositive();
        }
    }

    @Test
    void aRunLaterThanTheAgentsHandshakeTimeoutFailsNamingIt() throws Exception {
        try (Agent a = agent(Duration.ofMillis(300))) {
            // the pause is five times the agent's bound on the wait for this end's start
            assertThatThrownBy(() -> openPauseRun(a, Protocol.TCP, false))
                    .hasMessageContaining("did not start its run within 300 ms");
        }
    }
}
