package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import io.linerate.testsupport.PeerTool;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Clients that break iperf3's protocol against linerate's iperf3 server: each session ends, with
 * the server closing its control connection within the I/O timeout (and a log line saying why),
 * and the server then serves the real {@code iperf3 -c} (Debian package {@code iperf3}; these tests
 * are skipped, with that reason, where it is not installed). Every wait is bounded.
 */
class Iperf3AgentBadPeerTest {
    private static String IPERF3;
    private static final Duration IO = Duration.ofSeconds(2);
    /** How long a test waits for the server to act: the I/O timeout and room for a busy machine. */
    private static final int WAIT_MILLIS = (int) IO.toMillis() + 10_000;

    @BeforeAll
    static void needIperf3() {
        IPERF3 = PeerTool.require("iperf3", "iperf3");
    }

    private static Iperf3Agent agent() throws Exception {
        return Iperf3Agent.start(new Iperf3ServerConfig(InetAddress.getByName("127.0.0.1"), 0, AllowFrom.anyone(),
                AgentLimits.defaults(), IO));
    }

    /** Connects, sends a cookie and reads PARAM_EXCHANGE (9). */
    private static Socket afterCookie(Iperf3Agent a, byte[] cookie) throws Exception {
        Socket s = new Socket();
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), a.address().getPort()), WAIT_MILLIS);
        s.setSoTimeout(WAIT_MILLIS);
        s.getOutputStream().write(cookie);
        assertThat(s.getInputStream().read()).isEqualTo(Iperf3State.PARAM_EXCHANGE);
        return s;
    }

    /**
     * The server closed the session: the client reads the end of the stream (never a read timeout,
     * which would mean the server still holds it), then no session is left and iperf3 -c runs a test.
     */
    private static void sessionEndedAndServerStillServes(Iperf3Agent a, Socket s) throws Exception {
        InputStream in = s.getInputStream();
        int b;
        do {
            b = in.read(); // anything the server said before closing (SERVER_ERROR and its codes) is skipped
        } while (b >= 0);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        while (a.activeSessions() != 0 && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000L); // the session thread releases after its socket is closed
        }
        assertThat(a.activeSessions()).isZero();
        Process p = new ProcessBuilder(IPERF3, "-c", "127.0.0.1", "-p", Integer.toString(a.address().getPort()), "-t", "1")
                .redirectErrorStream(true).start();
        boolean ended = p.waitFor(60, TimeUnit.SECONDS);
        String out = new String(p.getInputStream().readNBytes(1 << 20), StandardCharsets.UTF_8);
        if (!ended) {
            p.destroyForcibly();
        }
        assertThat(ended).as("iperf3 -c ended within 60 s").isTrue();
        assertThat(p.exitValue()).as(out).isZero();
    }

    @Test
    void garbageAfterTheCookieEndsTheSession() throws Exception {
        try (Iperf3Agent a = agent(); Socket s = afterCookie(a, Iperf3Wire.newCookie())) {
            // a length of 8 (00 00 00 08) and 8 bytes that are not JSON
            s.getOutputStream().write(new byte[] {0, 0, 0, 8, 'g', 'a', 'r', 'b', 'a', 'g', 'e', '!'});
            sessionEndedAndServerStillServes(a, s);
        }
    }

    @Test
    void aJsonLengthOf2To31EndsTheSessionWithoutAllocatingIt() throws Exception {
        try (Iperf3Agent a = agent(); Socket s = afterCookie(a, Iperf3Wire.newCookie())) {
            // 0x80000000 = 2^31 bytes announced; the server refuses it (its limit is 1 MiB) before allocating
            s.getOutputStream().write(new byte[] {(byte) 0x80, 0, 0, 0});
            sessionEndedAndServerStillServes(a, s);
        }
    }

    @Test
    void aStateByteOutOfOrderEndsTheSession() throws Exception {
        byte[] cookie = Iperf3Wire.newCookie();
        try (Iperf3Agent a = agent(); Socket s = afterCookie(a, cookie); Socket data = new Socket()) {
            OutputStream out = s.getOutputStream();
            InputStream in = s.getInputStream();
            out.write(Iperf3Wire.lengthPrefixed("{\"tcp\":true,\"time\":10,\"parallel\":1,\"len\":1024}"
                    .getBytes(StandardCharsets.UTF_8)).array());
            assertThat(in.read()).isEqualTo(Iperf3State.CREATE_STREAMS);
            data.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), a.address().getPort()), WAIT_MILLIS);
            data.getOutputStream().write(cookie);
            assertThat(in.read()).isEqualTo(Iperf3State.TEST_START);
            assertThat(in.read()).isEqualTo(Iperf3State.TEST_RUNNING);
            // IPERF_DONE (16) where TEST_END (4) is due
            out.write(Iperf3State.IPERF_DONE);
            sessionEndedAndServerStillServes(a, s);
        }
    }

    @Test
    void aClientThatFallsSilentAfterTheCookieIsClosedWithinTheIoTimeout() throws Exception {
        try (Iperf3Agent a = agent(); Socket s = afterCookie(a, Iperf3Wire.newCookie())) {
            // nothing more is sent: the server waits for the parameters for its I/O timeout (2 s), then closes
            sessionEndedAndServerStillServes(a, s);
        }
    }

    @Test
    void aConnectionThatSendsNoCookieIsClosedWithinTheIoTimeout() throws Exception {
        try (Iperf3Agent a = agent(); Socket s = new Socket()) {
            s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), a.address().getPort()), WAIT_MILLIS);
            s.setSoTimeout(WAIT_MILLIS);
            s.getOutputStream().write("half a cookie".getBytes(StandardCharsets.US_ASCII));
            sessionEndedAndServerStillServes(a, s);
        }
    }
}
