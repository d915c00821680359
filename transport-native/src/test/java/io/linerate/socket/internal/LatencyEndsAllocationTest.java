package io.linerate.socket.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The agent's latency loops on native sockets allocate nothing per message once compiled: the echo
 * end's thread per answer, the request/response server's thread per transaction. A client on the
 * JDK's sockets (which allocates on the test's thread only) runs a warm-up long enough for the
 * JIT, then rounds of round trips, reading the serving thread's allocated-bytes counter between
 * rounds, while that thread waits for the next message. An allocation per message (an object is
 * 16 bytes or more) would reach 16 bytes per round trip in every round, so every round must stay
 * below that, and one of three must allocate exactly nothing (a one-off JVM event, such as a
 * recompilation, may show in another).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LatencyEndsAllocationTest {
    private static final int WARMUP = 20_000;
    private static final int ROUND = 5_000;
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Runs {@code n} round trips and returns once the last answer is in. */
    @FunctionalInterface
    private interface Trips {
        void run(int n) throws IOException;
    }

    private static void assertAllocatesNothing(Thread server, Trips trips) throws IOException {
        assertThat(THREADS.isThreadAllocatedMemorySupported()).isTrue();
        THREADS.setThreadAllocatedMemoryEnabled(true);
        trips.run(WARMUP);
        boolean clean = false;
        for (int round = 0; round < 3 && !clean; round++) {
            long before = THREADS.getThreadAllocatedBytes(server.getId());
            trips.run(ROUND);
            long allocated = THREADS.getThreadAllocatedBytes(server.getId()) - before;
            assertThat(allocated).as("bytes the serving thread allocated in %d round trips", ROUND)
                    .isBetween(0L, 16L * ROUND - 1);
            clean = allocated == 0;
        }
        assertThat(clean).as("one of three rounds allocated nothing").isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP"})
    void theEchoEndAnswersWithoutAllocating(PingPongProtocol p) throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(64)).noDelay(true)
                .timeout(Duration.ofSeconds(5)).build();
        byte[] message = new byte[64];
        try (NativeEchoEnd echo = NativeEchoEnd.open(spec, lo)) {
            if (p == PingPongProtocol.TCP) {
                try (Socket client = new Socket()) {
                    client.connect(new InetSocketAddress(lo, echo.localPort()), 5000);
                    client.setSoTimeout(5000);
                    client.setTcpNoDelay(true);
                    echo.accept(lo, 5000);
                    echo.start(64);
                    OutputStream out = client.getOutputStream();
                    DataInputStream in = new DataInputStream(client.getInputStream());
                    assertAllocatesNothing(echo.thread(), n -> {
                        for (int i = 0; i < n; i++) {
                            out.write(message);
                            in.readFully(message);
                        }
                    });
                }
            } else {
                try (DatagramSocket client = new DatagramSocket(new InetSocketAddress(lo, 0))) {
                    client.setSoTimeout(5000);
                    echo.connectUdp(new InetSocketAddress(lo, client.getLocalPort()));
                    echo.start(64);
                    DatagramPacket packet = new DatagramPacket(message, 64, new InetSocketAddress(lo, echo.localPort()));
                    assertAllocatesNothing(echo.thread(), n -> {
                        for (int i = 0; i < n; i++) {
                            client.send(packet);
                            client.receive(packet);
                        }
                    });
                }
            }
            assertThat(echo.failure()).isNull();
        }
    }

    @Test
    void theRrServerAnswersWithoutAllocating() throws Exception {
        InetAddress lo = AddressFamily.IPV4.loopbackAddress();
        RrSpec spec = RrSpec.builder().requestBytes(64).responseBytes(128).noDelay(true).build();
        byte[] request = new byte[64];
        byte[] response = new byte[128];
        try (NativeRrServer server = NativeRrServer.open(spec, lo); Socket client = new Socket()) {
            server.start();
            client.connect(server.address(), 5000);
            client.setSoTimeout(5000);
            client.setTcpNoDelay(true);
            OutputStream out = client.getOutputStream();
            DataInputStream in = new DataInputStream(client.getInputStream());
            assertAllocatesNothing(server.thread(), n -> {
                for (int i = 0; i < n; i++) {
                    out.write(request);
                    in.readFully(response);
                }
            });
            assertThat(server.failure()).isNull();
        }
    }
}
