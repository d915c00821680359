package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A bad client ends its own session only; the agent serves the next one and leaves nothing behind. */
@Timeout(120)
class AgentFaultTest {
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        // 2 s of warm-up + duration at most; the default payload and rate limits
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                new AgentLimits(8, Duration.ofSeconds(2), 0, AgentLimits.DEFAULT_MAX_PAYLOAD_BYTES),
                Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private TransferSpec shortTcp() {
        return AgentStreamTest.spec(agent, Protocol.TCP).duration(Duration.ofMillis(50)).warmup(Duration.ZERO)
                .interval(Duration.ofMillis(50)).build();
    }

    private void aGoodSessionStillWorks() throws Exception {
        RemoteStreamResult r = AgentStreamTest.run(shortTcp(), false);
        // a result came back through the whole protocol; a loaded host may send little in 50 ms, but
        // TCP delivers all of it
        assertThat(r.remote().bytes()).isEqualTo(r.local().bytes());
        assertThat(r.remote().sender()).isFalse();
    }

    /** Sends raw bytes to the control port and reads until the agent closes the connection. */
    private byte[] sendRaw(byte[] bytes) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(agent.address(), 5000);
            s.setSoTimeout(20_000);
            s.getOutputStream().write(bytes);
            s.getOutputStream().flush();
            InputStream in = s.getInputStream();
            // readAllBytes returns at the agent's close; a read timeout fails the test instead of hanging
            return in.readAllBytes();
        }
    }

    @Test
    void aWrongSecretIsRefusedAndTheNextClientIsServed() throws Exception {
        TransferSpec spec = shortTcp();
        assertThatThrownBy(() -> RemoteStreamTransfer.open(spec, Clock.system(),
                new RemoteOptions(Optional.of("wrong".getBytes(StandardCharsets.US_ASCII)), false)))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("authentication failed: the answer to the challenge does not match");
        assertThatThrownBy(() -> RemoteStreamTransfer.open(spec, Clock.system(), RemoteOptions.defaults()))
                .isInstanceOf(TransferException.class).hasMessageContaining("requires a shared secret");
        aGoodSessionStillWorks();
    }

    @Test
    void garbageClosesThatSessionOnly() throws Exception {
        // "GET " read as a length is 0x47455420 = 1195725856 bytes, far above the 64 KiB bound
        byte[] reply = sendRaw("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(new String(reply, StandardCharsets.ISO_8859_1)).contains("\"hello\"")
                .contains("control message of 1195725856 bytes announced; allowed: 0..65536");
        aGoodSessionStillWorks();
    }

    @Test
    void anOversizedLengthPrefixClosesThatSessionOnly() throws Exception {
        java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
        new DataOutputStream(b).writeInt(64 * 1024 + 1);
        byte[] reply = sendRaw(b.toByteArray());
        assertThat(new String(reply, StandardCharsets.ISO_8859_1))
                .contains("control message of 65537 bytes announced; allowed: 0..65536");
        aGoodSessionStillWorks();
    }

    @Test
    void aSpecOverTheLimitsIsRefusedNamingTheLimit() throws Exception {
        // warm-up 1 s + duration 1.5 s = 2500 ms against the limit of 2000 ms
        TransferSpec tooLong = shortTcp().toBuilder().warmup(Duration.ofSeconds(1)).duration(Duration.ofMillis(1500)).build();
        assertThatThrownBy(() -> RemoteStreamTransfer.open(tooLong, Clock.system(),
                new RemoteOptions(Optional.of(AgentStreamTest.SECRET), false)))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("warm-up + duration 2500 ms exceeds the agent's duration limit of 2000 ms (--max-duration)");
        // 2 MiB writes against the default payload limit of 1 MiB = 1048576 bytes
        TransferSpec tooBig = shortTcp().toBuilder().payloadBytes(2 << 20).build();
        assertThatThrownBy(() -> RemoteStreamTransfer.open(tooBig, Clock.system(),
                new RemoteOptions(Optional.of(AgentStreamTest.SECRET), false)))
                .hasMessageContaining("payload 2097152 bytes exceeds the agent's payload limit of 1048576 bytes");
        aGoodSessionStillWorks();
    }

    @Test
    void aClientBeyondMaxSessionsIsRefused() throws Exception {
        try (Agent one = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                new AgentLimits(1, Duration.ofSeconds(30), 0, 1 << 20), Duration.ofSeconds(5)))) {
            TransferSpec spec = shortTcp().toBuilder()
                    .endpoint(io.linerate.core.Endpoint.remote("127.0.0.1", one.address().getPort())).build();
            // the first client holds the one session with a stream of 20 s, rate-limited to stay light
            TransferSpec holding = spec.toBuilder().duration(Duration.ofSeconds(20)).rateBitsPerSecond(1_000_000).build();
            try (RemoteStreamTransfer holder = RemoteStreamTransfer.open(holding, Clock.system(), RemoteOptions.defaults())) {
                java.util.concurrent.CompletableFuture<Object> run = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        return holder.runBothEnds(IntervalListener.NONE);
                    } catch (Exception e) {
                        return e;
                    }
                });
                waitUntil(() -> one.activeSessions() == 1);
                assertThatThrownBy(() -> RemoteStreamTransfer.open(spec, Clock.system(), RemoteOptions.defaults()))
                        .hasMessageContaining("the agent serves at most 1 sessions at once (--max-sessions)");
                holder.close();
                run.join();
            }
        }
    }

    @Test
    void connectionsSlowInTheirHandshakeHoldNoSessionAndAreClosedAtTheDeadline() throws Exception {
        // max 1 session, a 2 s handshake deadline: 3 slow connections (fewer than 4 x 1 in handshake)
        try (Agent one = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                new AgentLimits(1, Duration.ofSeconds(30), 0, 1 << 20), Duration.ofSeconds(2)))) {
            List<Socket> slow = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket s = new Socket();
                    slow.add(s);
                    s.connect(one.address(), 5000);
                    // the first byte of a 4-byte length, then nothing: a client that sends a byte now and then
                    s.getOutputStream().write(0);
                    s.getOutputStream().flush();
                }
                waitUntil(() -> one.connectionsInHandshake() == 3);
                assertThat(one.activeSessions()).isZero();

                // a good client is served beside them
                TransferSpec spec = shortTcp().toBuilder()
                        .endpoint(io.linerate.core.Endpoint.remote("127.0.0.1", one.address().getPort())).build();
                RemoteStreamResult r = AgentStreamTest.run(spec, false);
                assertThat(r.remote().bytes()).isEqualTo(r.local().bytes());

                // the slow ones are closed by the handshake's deadline: each read ends at the end of the stream,
                // after the hello (the agent's first message) and nothing else
                for (Socket s : slow) {
                    s.setSoTimeout(60_000);
                    java.io.InputStream in = s.getInputStream();
                    long n = 0;
                    try {
                        while (in.read() >= 0) {
                            n++;
                        }
                    } catch (java.net.SocketException reset) {
                        // a reset also ends it
                    }
                    assertThat(n).as("bytes the agent sent a slow client").isPositive();
                }
                waitUntil(() -> one.connectionsInHandshake() == 0);
            } finally {
                for (Socket s : slow) {
                    s.close();
                }
            }
        }
    }

    @Test
    void twentySessionsInARowThenEightAtOnceLeaveNoDescriptorOrThread() throws Exception {
        aGoodSessionStillWorks(); // loads every class and the selector provider first
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            // the pool's threads exist before the baseline, so only the agent's and the ends' count
            List<Future<?>> warm = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                warm.add(pool.submit(() -> LockSupport.parkNanos(1)));
            }
            for (Future<?> f : warm) {
                f.get();
            }
            long fds = openDescriptors();
            int threads = ManagementFactory.getThreadMXBean().getThreadCount();

            for (int i = 0; i < 20; i++) {
                aGoodSessionStillWorks();
            }
            List<Future<RemoteStreamResult>> running = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                boolean reverse = i % 2 == 1;
                running.add(pool.submit((Callable<RemoteStreamResult>) () -> AgentStreamTest.run(shortTcp(), reverse)));
            }
            for (Future<RemoteStreamResult> f : running) {
                RemoteStreamResult r = f.get();
                assertThat(r.remote().bytes()).isEqualTo(r.local().bytes());
            }
            // sessions end on their own threads just after they reply: wait for them, bounded
            waitUntil(() -> agent.activeSessions() == 0
                    && openDescriptors() <= fds
                    && ManagementFactory.getThreadMXBean().getThreadCount() <= threads);
            assertThat(agent.activeSessions()).isZero();
            assertThat(openDescriptors()).isLessThanOrEqualTo(fds);
            assertThat(ManagementFactory.getThreadMXBean().getThreadCount()).isLessThanOrEqualTo(threads);
        } finally {
            pool.shutdownNow();
        }
    }

    private static long openDescriptors() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return s.count();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Polls a condition every 10 ms for at most 20 s; the assertions after it say what failed. */
    private static void waitUntil(java.util.function.BooleanSupplier done) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(10_000_000L);
        }
    }
}
