package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.testsupport.OpenFds;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NativeSocketTest {
    private static final InetAddress LO = InetAddress.getLoopbackAddress();
    private static final int TIMEOUT_MS = 10_000;

    @Test
    void mssReadAtBothEndsIsBoundedByTheMaxSegSetOnTheListener() throws Exception {
        try (NativeSocket listener = NativeSocket.tcp(AddressFamily.IPV4)) {
            listener.options().maxSegment(1200);
            listener.bindAndListen(LO, 0, 1);
            try (NativeSocket client = NativeSocket.tcp(AddressFamily.IPV4)) {
                client.connect(LO, listener.localPort(), TIMEOUT_MS);
                try (NativeSocket server = listener.accept(TIMEOUT_MS)) {
                    int clientMss = client.options().maxSegment();
                    int serverMss = server.options().maxSegment();
                    // the server announces at most 1200 in its SYN-ACK, so the client sends with at most that
                    assertThat(clientMss).isPositive().isLessThanOrEqualTo(1200);
                    assertThat(serverMss).isPositive().isLessThanOrEqualTo(1200);
                    TcpInfoReader info = new TcpInfoReader().read(client);
                    assertThat(info.sndMss()).isEqualTo(clientMss);
                    assertThat(new TcpInfoReader().read(server).sndMss()).isEqualTo(serverMss);
                }
            }
        }
    }

    @Test
    void loopbackMssIsBelowTheLoopbackMtuLessHeaders() throws Exception {
        try (Pair p = Pair.open()) {
            // loopback MTU 65536, capped at 65535 for an IPv4 datagram, less 20 IP and 20 TCP bytes
            int bound = 65535 - 20 - 20;
            assertThat(p.client.options().maxSegment()).isPositive().isLessThanOrEqualTo(bound);
            assertThat(p.server.options().maxSegment()).isPositive().isLessThanOrEqualTo(bound);
        }
    }

    @Test
    void bytesSentArriveAndTheEndOfStreamIsSeen() throws Exception {
        try (Pair p = Pair.open()) {
            ByteBuffer out = ByteBuffer.allocateDirect(4096);
            for (int i = 0; i < 4096; i++) {
                out.put(i, (byte) i);
            }
            ByteBuffer in = ByteBuffer.allocateDirect(8192);
            long outAddr = NativeSocket.address(out);
            long inAddr = NativeSocket.address(in);
            int total = 0;
            for (int k = 0; k < 10; k++) {
                int off = 0;
                while (off < 4096) {
                    int n = p.client.send(outAddr + off, 4096 - off, 100);
                    off += Math.max(n, 0);
                }
                total += 4096;
            }
            p.client.shutdownOutput();
            int got = 0;
            byte first = -1;
            while (true) {
                int n = p.server.receive(inAddr, 8192, TIMEOUT_MS);
                if (n == 0) {
                    break;
                }
                if (n > 0 && got == 0) {
                    first = in.get(1);
                }
                got += Math.max(n, 0);
            }
            assertThat(got).isEqualTo(total).isEqualTo(40960);
            assertThat(first).isEqualTo((byte) 1);
            TcpInfoReader info = new TcpInfoReader().read(p.client);
            // whatever of the 40960 bytes, the SYN and the FIN (one sequence number each) the server acknowledged yet
            assertThat(info.bytesAcked()).isBetween(1L, 40960L + 2);
            assertThat(info.totalRetrans()).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void socketOptionsReadBackAsSet() throws Exception {
        try (NativeSocket s = NativeSocket.tcp(AddressFamily.IPV6)) {
            s.options().noDelay(true);
            s.options().trafficClass(0x20);
            s.options().sendBuffer(64 * 1024);
            assertThat(s.options().noDelay()).isTrue();
            assertThat(s.options().trafficClass()).isEqualTo(0x20);
            assertThat(s.options().sendBuffer()).isEqualTo(2 * 64 * 1024); // socket(7): the kernel doubles it
        }
    }

    @Test
    void aClosedSocketNamesTheCallAndEbadf() throws Exception {
        NativeSocket s = NativeSocket.tcp(AddressFamily.IPV4);
        int fd = s.fd();
        s.close();
        ByteBuffer b = ByteBuffer.allocateDirect(16);
        assertThatThrownBy(() -> s.send(NativeSocket.address(b), 16, 10))
                .isInstanceOf(NativeSocketException.class)
                .hasMessage("send(fd " + fd + "): EBADF (Bad file descriptor)")
                .extracting(e -> ((NativeSocketException) e).errno()).isEqualTo(9);
        assertThatThrownBy(() -> s.options().maxSegment())
                .hasMessageStartingWith("getsockopt(fd " + fd + ", TCP_MAXSEG): EBADF");
    }

    @Test
    void anAcceptWithNoClientTimesOutNamingWhatWaitedAndHowLong() throws Exception {
        try (NativeSocket listener = NativeSocket.tcp(AddressFamily.IPV4)) {
            listener.bindAndListen(LO, 0, 1);
            assertThatThrownBy(() -> listener.accept(20))
                    .hasMessage("accept(fd " + listener.fd() + ") for a connection waited 20 ms without progress: "
                            + "ETIMEDOUT (Connection timed out)");
        }
    }

    @Test
    void aConnectToAClosedPortIsRefused() throws Exception {
        int port;
        try (NativeSocket l = NativeSocket.tcp(AddressFamily.IPV4)) {
            l.bindAndListen(LO, 0, 1);
            port = l.localPort();
        }
        try (NativeSocket s = NativeSocket.tcp(AddressFamily.IPV4)) {
            assertThatThrownBy(() -> s.connect(LO, port, TIMEOUT_MS))
                    .hasMessageEndingWith("ECONNREFUSED (Connection refused)")
                    .hasMessageStartingWith("connect(fd " + s.fd() + ", 127.0.0.1 port " + port + ")");
        }
    }

    @Test
    void everyDescriptorIsClosedOnEveryPath() throws Exception {
        Set<String> before = OpenFds.snapshot();
        try (Pair p = Pair.open()) {
            assertThat(OpenFds.snapshot()).hasSize(before.size() + 2);
        }
        try (NativeSocket l = NativeSocket.tcp(AddressFamily.IPV4)) {
            l.bindAndListen(LO, 0, 1);
            assertThatThrownBy(() -> l.accept(1)).isInstanceOf(NativeSocketException.class);
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
    }

    /** A connected client and server on 127.0.0.1; the listener is closed once accepted. */
    static final class Pair implements AutoCloseable {
        final NativeSocket client;
        final NativeSocket server;

        private Pair(NativeSocket client, NativeSocket server) {
            this.client = client;
            this.server = server;
        }

        static Pair open() throws Exception {
            try (NativeSocket listener = NativeSocket.tcp(AddressFamily.IPV4)) {
                listener.bindAndListen(LO, 0, 1);
                NativeSocket client = NativeSocket.tcp(AddressFamily.IPV4);
                try {
                    client.connect(LO, listener.localPort(), TIMEOUT_MS);
                    return new Pair(client, listener.accept(TIMEOUT_MS));
                } catch (Exception e) {
                    client.close();
                    throw e;
                }
            }
        }

        @Override
        public void close() throws Exception {
            try {
                client.close();
            } finally {
                server.close();
            }
        }
    }
}
