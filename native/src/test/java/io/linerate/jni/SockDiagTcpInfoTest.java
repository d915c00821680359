package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSource;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.jni.internal.SockDiag;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real loopback TCP connection, opened with {@code java.net} sockets, read through sock_diag
 * netlink and compared with what the test knows of it independently: its state, the bytes it sent
 * and saw acknowledged, and the loopback interface's MTU.
 */
class SockDiagTcpInfoTest {
    /** {@code TCP_ESTABLISHED} of {@code <netinet/tcp.h>}. */
    private static final long TCP_ESTABLISHED = 1;
    /** IPv4 and TCP headers without options, bytes (RFC 791, RFC 9293). */
    private static final int IPV4_TCP_HEADERS = 40;
    /** IPv6 and TCP headers without options, bytes (RFC 8200, RFC 9293). */
    private static final int IPV6_TCP_HEADERS = 60;
    private static final int SENT = 100_000;

    @BeforeAll
    static void linuxOnly() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"),
                "sock_diag netlink is Linux's; this host runs " + System.getProperty("os.name"));
    }

    @Test
    void serviceLoaderFindsTheSockDiagSource() {
        List<String> sources = ServiceLoader.load(TcpInfoSource.class).stream().map(p -> p.type().getName()).toList();
        assertThat(sources).containsExactly("io.linerate.jni.SockDiagTcpInfo");
        assertThat(new SockDiagTcpInfo().unavailabilityCause()).isEmpty();
    }

    @Test
    void theOffsetsReadAreThoseOfTheHeaders() {
        assertThat(SockDiag.mismatches()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1"})
    void anEstablishedConnectionShowsItsStateMssAndTheBytesThePeerAcknowledged(String loopback) throws IOException {
        InetAddress lo = InetAddress.getByName(loopback);
        try (ServerSocket server = new ServerSocket(0, 1, lo);
             Socket client = new Socket(lo, server.getLocalPort());
             Socket peer = server.accept()) {
            TcpInfoSources.Found found = TcpInfoSources.connection(
                    (InetSocketAddress) client.getLocalSocketAddress(), (InetSocketAddress) client.getRemoteSocketAddress());
            assertThat(found.unavailable()).isNull();
            TcpConnectionInfo info = found.info();
            assertThat(info.read()).as(info.describe()).isTrue();
            assertThat(info.state()).isEqualTo(TCP_ESTABLISHED);
            // the SYN counts as one acknowledged byte (ss -ti shows bytes_acked:1 on a fresh connection)
            assertThat(info.bytesAcked()).isEqualTo(1);
            int headers = loopback.contains(":") ? IPV6_TCP_HEADERS : IPV4_TCP_HEADERS;
            int mtu = NetworkInterface.getByInetAddress(lo).getMTU();
            // at most the MTU less the headers (options such as timestamps take more; until the peer's
            // window has grown, the kernel bounds it by half of the largest window seen)
            assertThat(info.sndMss()).isBetween(1L, (long) mtu - headers);

            exchange(client, peer);
            assertThat(info.read()).isTrue();
            // the peer's answer carried its acknowledgement of every byte before the client read it
            assertThat(info.bytesAcked()).isEqualTo(1 + SENT);
            // loopback loses nothing, but a busy host may delay the ACK past the probe timeout, and the
            // kernel then retransmits; the exchange is 2 segments and a handshake, so a few at most
            assertThat(info.totalRetrans()).isBetween(0L, 10L);
        }
    }

    /** Sends {@link #SENT} bytes, reads them all at the peer, then answers one byte and reads it. */
    private static void exchange(Socket client, Socket peer) throws IOException {
        OutputStream out = client.getOutputStream();
        out.write(new byte[SENT]);
        out.flush();
        InputStream in = peer.getInputStream();
        assertThat(in.readNBytes(SENT)).hasSize(SENT);
        peer.getOutputStream().write(7);
        assertThat(client.getInputStream().read()).isEqualTo(7);
    }

    @Test
    void theAcceptedEndIsFoundByItsOwnAddresses() throws IOException {
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, lo);
             Socket client = new Socket(lo, server.getLocalPort());
             Socket peer = server.accept()) {
            TcpConnectionInfo info = new SockDiagTcpInfo().connection(
                    (InetSocketAddress) peer.getLocalSocketAddress(), (InetSocketAddress) peer.getRemoteSocketAddress());
            assertThat(info.read()).isTrue();
            assertThat(info.state()).isEqualTo(TCP_ESTABLISHED);
            assertThat(peer.getRemoteSocketAddress()).isEqualTo(client.getLocalSocketAddress());
        }
    }

    @Test
    void aTupleNoConnectionHasIsNotFound() throws IOException {
        InetAddress lo = InetAddress.getByName("127.0.0.1");
        try (ServerSocket listening = new ServerSocket(0, 1, lo)) {
            // the listener has no remote end, so no connection has this tuple; the kernel's exact
            // lookup falls back to the listener, which must not be taken for the connection
            TcpConnectionInfo info = new SockDiagTcpInfo().connection(
                    new InetSocketAddress(lo, listening.getLocalPort()), new InetSocketAddress(lo, 9));
            assertThat(info.read()).as(info.describe()).isFalse();
            assertThat(info.state()).isEqualTo(-1);
            assertThat(info.totalRetrans()).isEqualTo(-1);
            assertThat(info.describe()).contains(":" + listening.getLocalPort()).contains(":9");
        }
    }

    @Test
    void addressesThatNameNoConnectionAreRefused() throws IOException {
        SockDiagTcpInfo source = new SockDiagTcpInfo();
        InetSocketAddress v4 = new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 5001);
        InetSocketAddress v6 = new InetSocketAddress(InetAddress.getByName("::1"), 5001);
        assertThatThrownBy(() -> source.connection(v4, v6)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("different families");
        assertThatThrownBy(() -> source.connection(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0), v4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1..65535");
        assertThatThrownBy(() -> source.connection(InetSocketAddress.createUnresolved("example.invalid", 1), v4))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("resolved");
    }

    @Test
    void aReadAllocatesNothing() throws IOException {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Assumptions.assumeTrue(threads.isThreadAllocatedMemorySupported(), "this JVM cannot count allocated bytes");
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (ServerSocket server = new ServerSocket(0, 1, lo);
             Socket client = new Socket(lo, server.getLocalPort());
             Socket peer = server.accept()) {
            TcpConnectionInfo info = new SockDiagTcpInfo().connection(
                    (InetSocketAddress) client.getLocalSocketAddress(), (InetSocketAddress) client.getRemoteSocketAddress());
            long sum = readAll(info, 100); // links the native method and warms the path
            // as the transports' steady-state tests: a read that allocated would show at least 16 bytes
            // each, 16,000 per round, in every round; the compiler's own work may show once, not in all three
            boolean clean = false;
            for (int round = 0; round < 3 && !clean; round++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                sum += readAll(info, 1000);
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                assertThat(allocated).as("bytes allocated by 1000 reads").isLessThan(1000);
                clean = allocated == 0;
                assertThat(sum).isEqualTo(1100 * TCP_ESTABLISHED + round * 1000L * TCP_ESTABLISHED);
            }
            assertThat(clean).as("one of three rounds of 1000 reads allocated nothing").isTrue();
            assertThat(peer.isConnected()).isTrue();
        }
    }

    private static long readAll(TcpConnectionInfo info, int times) throws IOException {
        long states = 0;
        for (int i = 0; i < times; i++) {
            if (info.read()) {
                states += info.state();
            }
        }
        return states;
    }
}
