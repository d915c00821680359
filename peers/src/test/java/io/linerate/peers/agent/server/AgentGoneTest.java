package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.client.AgentStoppedException;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.RemoteStreamTransfer;
import io.linerate.peers.agent.internal.wire.Control;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A client receiving a reverse stream (the agent sends) while the agent stops or goes away: its
 * end watches the control connection and fails soon after, naming the agent, instead of counting
 * empty intervals to the end of its 30 s window and draining past it.
 */
@Timeout(120)
class AgentGoneTest {
    private static final Duration IO = Duration.ofSeconds(2);
    /**
     * Bound on the time from the stop to the client's failure: the I/O timeout (the client may wait that
     * long for the agent's word after its own end failed) plus 10 s for a loaded host. Without watching,
     * the client ends 30 s (its window) + the drain after the start, so the bound can fail.
     */
    private static final long BOUND_NANOS = IO.plusSeconds(10).toNanos();

    private static TransferSpec spec(int port) {
        return TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4).payloadBytes(1200)
                .rateBitsPerSecond(20_000_000).duration(Duration.ofSeconds(30)).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(200)).ioTimeout(IO).endpoint(Endpoint.remote("127.0.0.1", port)).build();
    }

    /** Runs a reverse UDP stream; {@code stop} runs on another thread at this end's first interval. */
    private static Outcome run(int port, Runnable stop) {
        AtomicLong stoppedAt = new AtomicLong();
        AtomicBoolean stopping = new AtomicBoolean();
        IntervalListener stopOnFirst = s -> {
            if (stopping.compareAndSet(false, true)) {
                CompletableFuture.runAsync(() -> {
                    stoppedAt.set(System.nanoTime());
                    stop.run();
                });
            }
        };
        Throwable thrown = null;
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec(port), Clock.system(),
                new RemoteOptions(Optional.empty(), true))) {
            t.runBothEnds(stopOnFirst);
        } catch (Throwable e) {
            thrown = e;
        }
        return new Outcome(thrown, System.nanoTime() - stoppedAt.get());
    }

    private record Outcome(Throwable thrown, long nanosAfterStop) {}

    @Test
    void anAgentStoppedMidStreamEndsTheReceivingClientWithItsReason() throws Exception {
        Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
        try {
            Outcome o = run(agent.address().getPort(), agent::close);

            assertThat(o.thrown()).isInstanceOf(AgentStoppedException.class);
            assertThat(o.thrown().getMessage()).contains("the agent at 127.0.0.1:" + agent.address().getPort())
                    .contains(AgentSession.STOPPING);
            assertThat(o.nanosAfterStop()).isLessThan(BOUND_NANOS);
        } finally {
            agent.close();
        }
    }

    @Test
    void anAgentWhoseSocketsAreResetEndsTheReceivingClient() throws Exception {
        agentGoesAway(true);
    }

    @Test
    void anAgentWhoseSocketsAreClosedEndsTheReceivingClient() throws Exception {
        agentGoesAway(false);
    }

    /**
     * A stand-in agent (as one killed with SIGKILL: its sockets close and it says nothing more) that
     * answers the handshake, names a UDP data port, sends nothing on it, and then closes its control
     * socket at the client's first interval, with a reset ({@code reset}) or an orderly close.
     */
    private static void agentGoesAway(boolean reset) throws Exception {
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             DatagramSocket udp = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    Socket s = server.accept();
                    Control c = new Control(s, 10_000);
                    c.send(Control.message("hello").put("version", 1));
                    JsonNode req = c.receive();
                    assertThat(req.get("type").asText()).isEqualTo("stream");
                    c.send(Control.message("ready").put("port", udp.getLocalPort()));
                    return s;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Outcome o = run(server.getLocalPort(), () -> {
                try {
                    Socket s = accepted.join();
                    if (reset) {
                        s.setSoLinger(true, 0);
                    }
                    s.close();
                    udp.close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });

            assertThat(o.thrown()).isInstanceOf(io.linerate.core.TransferException.class)
                    .isNotInstanceOf(AgentStoppedException.class);
            assertThat(o.thrown().getMessage())
                    .contains("the agent at 127.0.0.1:" + server.getLocalPort())
                    .contains("went away")
                    .doesNotContain("null");
            assertThat(o.nanosAfterStop()).isLessThan(BOUND_NANOS);
        }
    }
}
