package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Stopping linerate's iperf3 server while the real {@code iperf3 -c} runs a test: the client is
 * told SERVER_TERMINATE and says so, and the server's threads and ports are gone.
 */
class Iperf3AgentStopTest {
    private static String IPERF3;

    @BeforeAll
    static void needIperf3() {
        IPERF3 = RealIperf3.require();
    }

    @ParameterizedTest
    @ValueSource(strings = {"udp", "udp-reverse", "tcp"})
    void aStoppedServerTellsTheClientItTerminated(String kind) throws Exception {
        Iperf3Agent a = Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0,
                AllowFrom.anyone(), AgentLimits.defaults(), Duration.ofSeconds(3)));
        int port = a.address().getPort();
        Process p;
        try {
            String[] args = switch (kind) {
                case "udp" -> new String[] {"-u", "-b", "10M", "-t", "30", "-i", "0.1", "--forceflush"};
                case "udp-reverse" -> new String[] {"-u", "-R", "-b", "10M", "-t", "30", "-i", "0.1", "--forceflush"};
                default -> new String[] {"-b", "10M", "-t", "30", "-i", "0.1", "--forceflush"};
            };
            p = RealIperf3.start(IPERF3, a, args);
        } catch (Exception e) {
            a.close();
            throw e;
        }
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            // the first interval line: the test is running
            CompletableFuture<String> running = CompletableFuture.supplyAsync(() -> readUntil(in, " sec "));
            assertThat(running.get(30, TimeUnit.SECONDS)).contains(" sec ");
            a.close();
            CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> readUntil(in, null));
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("iperf3 ends after the server stops").isTrue();
            String out = rest.get(10, TimeUnit.SECONDS);
            // iperf3's message for SERVER_TERMINATE (iperf_error.c, IESERVERTERM)
            assertThat(out).contains("the server has terminated");
            assertThat(p.exitValue()).isNotZero();
        } finally {
            p.destroyForcibly();
            a.close();
        }
        assertThat(a.activeSessions()).isZero();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("linerate-iperf3") && t.isAlive());
        try (Socket s = new Socket()) {
            assertThat(catching(() -> s.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 2000)))
                    .as("the port is closed").isNotNull();
        }
    }

    private interface Action {
        void run() throws Exception;
    }

    private static Exception catching(Action a) {
        try {
            a.run();
            return null;
        } catch (Exception e) {
            return e;
        }
    }

    /** Reads lines up to one containing {@code marker}, or to the end when it is null; returns what it read. */
    private static String readUntil(BufferedReader in, String marker) {
        StringBuilder b = new StringBuilder();
        try {
            for (String line; (line = in.readLine()) != null; ) {
                b.append(line).append('\n');
                if (marker != null && line.contains(marker)) {
                    break;
                }
            }
        } catch (java.io.IOException e) {
            b.append(e);
        }
        return b.toString();
    }
}
