package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Connections that say nothing do not lock a client that speaks out of the agent (iperf3 #788):
 * with {@code --max-sessions 1} four silent connections held every handshake slot for the whole
 * handshake timeout. The agent's handshake timeout here is the default 10 s, longer than the runs
 * below need: a client served beside silent connections was served because one of them made room.
 */
@Timeout(120)
class AgentSilentPeersTest {
    private static final int SILENT = 50;

    private static Agent agent(Optional<byte[]> secret) throws Exception {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, secret,
                new AgentLimits(1, Duration.ofSeconds(30), 0, 1 << 20), AgentConfig.DEFAULT_HANDSHAKE_TIMEOUT));
    }

    private static TransferSpec spec(Agent a) {
        return TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(64 * 1024)
                .duration(Duration.ofMillis(200)).warmup(Duration.ZERO).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("127.0.0.1", a.address().getPort())).build();
    }

    private static RemoteStreamResult run(Agent a, Optional<byte[]> secret) throws Exception {
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec(a), Clock.system(), new RemoteOptions(secret, false))) {
            return t.runBothEnds(IntervalListener.NONE);
        }
    }

    /** Opens {@code n} connections to the agent that send nothing; the caller closes them. */
    private static List<Socket> silent(Agent a, int n, List<Socket> into) throws Exception {
        for (int i = 0; i < n; i++) {
            Socket s = new Socket();
            into.add(s);
            s.connect(a.address(), 5000);
        }
        return into;
    }

    private static void closeAll(List<? extends AutoCloseable> all) throws Exception {
        for (AutoCloseable c : all) {
            c.close();
        }
    }

    @Test
    void fiftySilentConnectionsThenARealStreamWithASecret() throws Exception {
        fiftySilentConnectionsThenARealStream(Optional.of(AgentStreamTest.SECRET));
    }

    @Test
    void fiftySilentConnectionsThenARealStreamWithoutASecret() throws Exception {
        fiftySilentConnectionsThenARealStream(Optional.empty());
    }

    private void fiftySilentConnectionsThenARealStream(Optional<byte[]> secret) throws Exception {
        List<Socket> quiet = new ArrayList<>();
        try (Agent a = agent(secret)) {
            silent(a, SILENT, quiet);
            RemoteStreamResult r = run(a, secret);
            // TCP delivers all that was sent, whatever the load
            assertThat(r.remote().bytes()).isEqualTo(r.local().bytes()).isPositive();
            assertThat(r.remote().sender()).isFalse();
            assertThat(a.connectionsInHandshake()).isLessThanOrEqualTo(a.maxHandshakes());
            // the oldest silent connection made room: the agent closed it (after its hello, if it had sent it by then)
            quiet.get(0).setSoTimeout(60_000);
            assertThat(quiet.get(0).getInputStream().readAllBytes().length).as("bytes before the agent's close")
                    .isLessThan(Control.MAX_MESSAGE_BYTES);
        } finally {
            closeAll(quiet);
        }
    }

    @Test
    void clientsThatAnsweredTheChallengeKeepTheirSlots() throws Exception {
        Optional<byte[]> secret = Optional.of(AgentStreamTest.SECRET);
        RemoteOptions options = new RemoteOptions(secret, false);
        List<Control> waiting = new ArrayList<>();
        try (Agent a = agent(secret)) {
            Endpoint.Remote peer = (Endpoint.Remote) spec(a).endpoint();
            InetAddress lo = InetAddress.getLoopbackAddress();
            // four clients answer the challenge and then wait before their request: every slot held by a client that spoke
            for (int i = 0; i < a.maxHandshakes(); i++) {
                waiting.add(AgentClient.connect(peer, lo, 5000, options).control());
            }
            assertThatThrownBy(() -> run(a, secret)).hasMessageContaining("all are taken by clients that answered the challenge");
            // one of them leaves: its slot is free for a real stream, beside the other three
            waiting.remove(0).close();
            RemoteStreamResult r = awaitServed(a, secret);
            assertThat(r.remote().bytes()).isEqualTo(r.local().bytes()).isPositive();
        } finally {
            closeAll(waiting);
        }
    }

    /** Runs a stream once the agent has seen the closed connection go; bounded by the agent's own close of it. */
    private static RemoteStreamResult awaitServed(Agent a, Optional<byte[]> secret) throws Exception {
        while (a.connectionsInHandshake() >= a.maxHandshakes()) {
            LockSupport.parkNanos(1_000_000L);
        }
        return run(a, secret);
    }
}
