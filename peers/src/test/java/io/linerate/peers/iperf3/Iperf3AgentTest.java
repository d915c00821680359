package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf3.RealIperf3.Run;
import io.linerate.peers.server.AllowFrom;
import io.linerate.testsupport.PeerTool;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The real iperf3 client ({@code iperf3 -c}, Debian package {@code iperf3}) against
 * linerate's iperf3 server in this JVM on 127.0.0.1. Skipped, with that reason, where the binary
 * is not installed. Every assertion is an identity between iperf3's counts (its own {@code -J})
 * and linerate's (the server's results iperf3 prints, and its {@code --get-server-output}); none
 * expects zero loss or a particular rate.
 */
class Iperf3AgentTest {
    private static String IPERF3;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @BeforeAll
    static void needIperf3() {
        IPERF3 = PeerTool.require("iperf3", "iperf3");
    }

    private static Iperf3Agent agent(AllowFrom allow, AgentLimits limits, Duration io) throws Exception {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0, allow, limits, io));
    }

    private static Iperf3Agent agent() throws Exception {
        return agent(AllowFrom.anyone(), AgentLimits.defaults(), Duration.ofSeconds(5));
    }

    /** Runs {@code iperf3 -c 127.0.0.1 -p PORT args...}, bounded by 60 s. */
    private static Run iperf3(Iperf3Agent a, String... args) throws Exception {
        return RealIperf3.run(IPERF3, a, args);
    }

    /**
     * Bytes a TCP test may leave unread when the server stops reading at TEST_END: at most what
     * the client's send buffer and the server's receive buffer hold, whose largest sizes are the
     * third fields of tcp_wmem and tcp_rmem.
     */
    private static long unreadBound() throws Exception {
        return max("/proc/sys/net/ipv4/tcp_wmem") + max("/proc/sys/net/ipv4/tcp_rmem");
    }

    private static long max(String file) throws Exception {
        String[] f = Files.readAllLines(Path.of(file)).get(0).trim().split("\\s+");
        return Long.parseLong(f[2]);
    }

    @Test
    void tcpForwardLinerateReceivesWhatIperf3Sent() throws Exception {
        try (Iperf3Agent a = agent()) {
            Run r = iperf3(a, "-t", "1", "-P", "2", "-J", "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sent = end.path("sum_sent").path("bytes").asLong();
            long received = end.path("sum_received").path("bytes").asLong();
            JsonNode server = r.json().path("server_output_json");
            // iperf3's sum_received is linerate's count, sent back in the results; the report says the same
            assertThat(server.path("sum").path("bytes_received").asLong()).isEqualTo(received);
            assertThat(server.path("streams")).hasSize(2);
            assertThat(sent).isPositive();
            // linerate reads what is there after TEST_END; whatever is left unread fits the two buffers
            assertThat(received).isLessThanOrEqualTo(sent).isGreaterThanOrEqualTo(sent - unreadBound());
        }
    }

    @Test
    void tcpReverseIperf3ReceivesWhatLinerateSent() throws Exception {
        try (Iperf3Agent a = agent()) {
            Run r = iperf3(a, "-t", "1", "-R", "-l", "64K", "-J", "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sent = end.path("sum_sent").path("bytes").asLong();
            long received = end.path("sum_received").path("bytes").asLong();
            assertThat(r.json().path("server_output_json").path("sum").path("bytes_sent").asLong()).isEqualTo(sent);
            assertThat(received).isPositive().isLessThanOrEqualTo(sent).isGreaterThanOrEqualTo(sent - unreadBound());
        }
    }

    @Test
    void tcpBidirectionalCountsBothWays() throws Exception {
        try (Iperf3Agent a = agent()) {
            Run r = iperf3(a, "-t", "1", "--bidir", "-J", "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            JsonNode server = r.json().path("server_output_json").path("sum");
            // client to server: iperf3's sum_sent against linerate's count
            long up = end.path("sum_sent").path("bytes").asLong();
            assertThat(end.path("sum_received").path("bytes").asLong()).isEqualTo(server.path("bytes_received").asLong())
                    .isLessThanOrEqualTo(up).isGreaterThanOrEqualTo(up - unreadBound());
            // server to client: linerate's count is what iperf3 prints as the reverse direction's sender
            long down = end.path("sum_sent_bidir_reverse").path("bytes").asLong();
            assertThat(down).isEqualTo(server.path("bytes_sent").asLong()).isPositive();
            assertThat(end.path("sum_received_bidir_reverse").path("bytes").asLong()).isLessThanOrEqualTo(down);
        }
    }

    @Test
    void tcpByteCountStopsAtN() throws Exception {
        try (Iperf3Agent a = agent()) {
            // -n 10M: iperf3 sends exactly 10 MiB = 10485760 bytes in writes of 128 KiB (80 writes)
            Run r = iperf3(a, "-n", "10M", "-J");
            assertThat(r.exit()).as(r.out()).isZero();
            assertThat(r.json().path("end").path("sum_sent").path("bytes").asLong()).isEqualTo(10_485_760L);
            assertThat(r.json().path("end").path("sum_received").path("bytes").asLong()).isLessThanOrEqualTo(10_485_760L);
        }
    }

    @Test
    void udpForwardReceivedPlusLostIsWhatIperf3Sent() throws Exception {
        try (Iperf3Agent a = agent()) {
            Run r = iperf3(a, "-u", "-b", "50M", "-l", "1400", "-t", "1", "-J", "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sentPackets = end.path("sum_sent").path("packets").asLong();
            JsonNode server = r.json().path("server_output_json").path("sum");
            // every datagram is 1400 bytes with its header, so linerate's byte count gives its datagram count
            long receivedBytes = server.path("bytes_received").asLong();
            assertThat(receivedBytes % 1400).isZero();
            long received = receivedBytes / 1400;
            long lost = server.path("lost_packets").asLong();
            assertThat(sentPackets).isPositive();
            assertThat(received + lost).isEqualTo(sentPackets);
            // what iperf3 prints for the server's side is linerate's count
            assertThat(end.path("sum_received").path("lost_packets").asLong()).isEqualTo(lost);
            assertThat(end.path("sum_received").path("packets").asLong()).isEqualTo(sentPackets);
            assertThat(end.path("sum_received").path("bytes").asLong()).isEqualTo(receivedBytes);
        }
    }

    @Test
    void udpReverseIperf3CountsWhatLinerateSent() throws Exception {
        try (Iperf3Agent a = agent()) {
            Run r = iperf3(a, "-u", "-b", "50M", "-l", "1400", "-t", "1", "-R", "-J", "--get-server-output");
            assertThat(r.exit()).as(r.out()).isZero();
            JsonNode end = r.json().path("end");
            long sentPackets = end.path("sum_sent").path("packets").asLong();
            long sentBytes = end.path("sum_sent").path("bytes").asLong();
            assertThat(sentPackets).isPositive();
            assertThat(sentBytes).isEqualTo(sentPackets * 1400);
            assertThat(r.json().path("server_output_json").path("sum").path("bytes_sent").asLong()).isEqualTo(sentBytes);
            // iperf3 counts up to the highest sequence number it saw, so trailing loss is not in its count
            long clientPackets = end.path("sum_received").path("packets").asLong();
            long clientLost = end.path("sum_received").path("lost_packets").asLong();
            assertThat(clientPackets).isPositive().isLessThanOrEqualTo(sentPackets);
            assertThat(end.path("sum_received").path("bytes").asLong()).isEqualTo((clientPackets - clientLost) * 1400);
        }
    }

    @Test
    void twoClientsAreServedAtOnce() throws Exception {
        try (Iperf3Agent a = agent(AllowFrom.anyone(), new AgentLimits(2, Duration.ofMinutes(1), 0, 1 << 20),
                Duration.ofSeconds(5))) {
            CompletableFuture<Run> one = CompletableFuture.supplyAsync(() -> run(a));
            CompletableFuture<Run> two = CompletableFuture.supplyAsync(() -> run(a));
            for (Run r : List.of(one.get(90, TimeUnit.SECONDS), two.get(90, TimeUnit.SECONDS))) {
                assertThat(r.exit()).as(r.out()).isZero();
                assertThat(r.json().path("end").path("sum_received").path("bytes").asLong()).isPositive();
            }
            assertThat(a.sessionsStarted()).isEqualTo(2);
            assertThat(a.refusals()).isZero();
        }
    }

    private static Run run(Iperf3Agent a) {
        try {
            return iperf3(a, "-t", "2", "-J");
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens a control connection that sends a cookie and then waits: it holds one of the server's sessions. */
    private static Socket holdSession(Iperf3Agent a) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(LOOPBACK, a.address().getPort()), 5000);
        s.setSoTimeout(10_000);
        s.getOutputStream().write(Iperf3Wire.newCookie());
        assertThat(s.getInputStream().read()).isEqualTo(Iperf3State.PARAM_EXCHANGE);
        return s;
    }

    @Test
    void aClientBeyondMaxSessionsIsToldTheServerIsBusy() throws Exception {
        try (Iperf3Agent a = agent(AllowFrom.anyone(), new AgentLimits(2, Duration.ofMinutes(1), 0, 1 << 20),
                Duration.ofSeconds(20));
             Socket one = holdSession(a); Socket two = holdSession(a)) {
            Run r = iperf3(a, "-t", "1");
            assertThat(r.exit()).isNotZero();
            // iperf3's message for ACCESS_DENIED (iperf_error.c, IEACCESSDENIED)
            assertThat(r.out()).contains("the server is busy running a test");
            assertThat(a.refusals()).isEqualTo(1);
        }
    }

    @Test
    void aSecondUdpTestFromOneAddressIsDenied() throws Exception {
        try (Iperf3Agent a = agent(AllowFrom.anyone(), AgentLimits.defaults(), Duration.ofSeconds(20));
             Socket held = holdSession(a)) {
            // the held test asks for UDP and stops at CREATE_STREAMS: it owns 127.0.0.1's one UDP test
            byte[] params = "{\"udp\":true,\"time\":10,\"parallel\":1,\"len\":1400,\"bandwidth\":1000000}"
                    .getBytes(StandardCharsets.UTF_8);
            OutputStream o = held.getOutputStream();
            o.write(java.nio.ByteBuffer.allocate(4).putInt(params.length).array());
            o.write(params);
            assertThat(held.getInputStream().read()).isEqualTo(Iperf3State.CREATE_STREAMS);
            Run r = iperf3(a, "-u", "-t", "1");
            assertThat(r.exit()).isNotZero();
            assertThat(r.out()).contains("the server is busy running a test");
            // a TCP test from the same address is served meanwhile
            Run tcp = iperf3(a, "-t", "1");
            assertThat(tcp.exit()).as(tcp.out()).isZero();
        }
    }

    @Test
    void aClientOutsideAllowFromIsClosedBeforeAnythingIsRead() throws Exception {
        try (Iperf3Agent a = agent(AllowFrom.parse("198.18.0.0/15"), AgentLimits.defaults(), Duration.ofSeconds(5))) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(LOOPBACK, a.address().getPort()), 5000);
                s.setSoTimeout(10_000);
                // nothing sent: the server closes without waiting for a cookie
                assertThat(s.getInputStream().read()).isEqualTo(-1);
            }
            Run r = iperf3(a, "-t", "1");
            assertThat(r.exit()).isNotZero();
            assertThat(a.sessionsStarted()).isZero();
            assertThat(a.refusals()).isEqualTo(2);
        }
    }

    @Test
    void limitsAreRefusedWithIperf3sOwnMessages() throws Exception {
        try (Iperf3Agent a = agent(AllowFrom.anyone(), new AgentLimits(4, Duration.ofSeconds(3), 10_000_000, 1 << 20),
                Duration.ofSeconds(5))) {
            // 5 s > the 3 s limit: IEDURATION
            Run longer = iperf3(a, "-u", "-b", "1M", "-t", "5");
            assertThat(longer.exit()).isNotZero();
            assertThat(longer.out()).contains("test duration too long");
            // 2 streams x 8 Mbit/s = 16 Mbit/s > 10 Mbit/s: IETOTALRATE
            Run faster = iperf3(a, "-u", "-b", "8M", "-P", "2", "-t", "1");
            assertThat(faster.exit()).isNotZero();
            assertThat(faster.out()).contains("total required bandwidth is larger than server limit");
            assertThat(a.refusals()).isEqualTo(2);
            // a refused session ends on the agent's thread after the client has gone: wait for it, bounded
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (a.activeSessions() != 0 && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(1_000_000L);
            }
            assertThat(a.activeSessions()).isZero();
        }
    }
}
