package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

class UdpSocketDropsTest {
    private static final String HEADER = "   sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt"
            + "   uid  timeout inode ref pointer drops";
    private static final String HEADER6 = "  sl  local_address                         "
            + "remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops";

    /**
     * Lines as udp4_format_sock prints them on a little-endian host: 127.0.0.1 is the __be32 bytes
     * 7F 00 00 01 read as the word 0x0100007F; 198.18.0.5 (C6 12 00 05) reads 0x050012C6; ports
     * 5201 = 0x1451, 5202 = 0x1452, 53 = 0x0035.
     */
    private static final List<String> UDP = List.of(HEADER,
            "  130: 0100007F:1451 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1000        0 41234 2 "
                    + "ffff8d1c2f3a4400 1890000",
            "  131: 050012C6:1452 00000000:0000 07 00000000:00000000 00:00000000 00000000     0        0 41235 2 "
                    + "ffff8d1c2f3a4800 17",
            "  132: 3500007F:0035 00000000:0000 07 00000000:00000000 00:00000000 00000000   101        0 2190 2 "
                    + "ffff8d1c2f3a4c00 0");

    /** ::1 is s6_addr32 {0, 0, 0, bytes 00 00 00 01}; the last word reads 0x01000000 on little-endian. */
    private static final List<String> UDP6 = List.of(HEADER6,
            "  200: 00000000000000000000000001000000:1451 00000000000000000000000001000000:9C41 01 "
                    + "00000000:00000000 00:00000000 00000000  1000        0 51234 2 ffff8d1c2f3a5000 4242");

    @Test
    void findsLoopbackIpv4SocketAndItsDrops() {
        UdpSocketDrops.Reading r = parse(UDP, "127.0.0.1", 5201);
        assertThat(r.known()).isTrue();
        assertThat(r.drops()).isEqualTo(1_890_000);
        assertThat(r.unknownReason()).isEmpty();
    }

    @Test
    void findsBenchmarkingAddressSocket() {
        assertThat(parse(UDP, "198.18.0.5", 5202).drops()).isEqualTo(17);
        assertThat(parse(UDP, "127.0.0.53", 53).drops()).isZero();
    }

    @Test
    void findsIpv6LoopbackSocket() {
        assertThat(parse(UDP6, "::1", 5201).drops()).isEqualTo(4242);
    }

    @Test
    void readsWordsInBigEndianOrderOnABigEndianHost() {
        List<String> be = List.of(HEADER,
                "    7: 7F000001:1451 00000000:0000 07 00000000:00000000 00:00000000 00000000  1000        0 9 2 "
                        + "0000000000000000 3");
        assertThat(UdpSocketDrops.parse(be, address("127.0.0.1", 5201), ByteOrder.BIG_ENDIAN, "t").drops())
                .isEqualTo(3);
    }

    @Test
    void socketNotFoundIsUnknownWithReason() {
        UdpSocketDrops.Reading r = parse(UDP, "127.0.0.1", 5299);
        assertThat(r.known()).isFalse();
        assertThat(r.drops()).isEqualTo(-1);
        assertThat(r.unknownReason()).isEqualTo("no socket bound to 127.0.0.1:5299 in /proc/net/udp");
    }

    @Test
    void twoSocketsOnOneAddressAreAmbiguous() {
        List<String> twice = List.of(HEADER, UDP.get(1), UDP.get(1).replace("  130:", "  140:"));
        UdpSocketDrops.Reading r = parse(twice, "127.0.0.1", 5201);
        assertThat(r.known()).isFalse();
        assertThat(r.unknownReason()).startsWith("2 sockets bound to 127.0.0.1:5201");
    }

    @Test
    void malformedLineIsUnknownNamingTheLine() {
        List<String> bad = List.of(HEADER, UDP.get(1), "  131: 0100007G:1452 00000000:0000 07 x x x x x x x x 5");
        UdpSocketDrops.Reading r = parse(bad, "127.0.0.1", 5201);
        assertThat(r.known()).isFalse();
        assertThat(r.unknownReason()).startsWith("line 3 of /proc/net/udp cannot be parsed");
        List<String> shortLine = List.of(HEADER, "  131: 0100007F:1452 00000000:0000 07");
        assertThat(parse(shortLine, "127.0.0.1", 5202).unknownReason())
                .contains("it has 4 fields, at least 13 expected");
    }

    /**
     * A socket with a tiny receive buffer that nobody reads drops what does not fit; the datagrams
     * it still holds, drained afterwards, and the drops add up to those sent (loopback loses none
     * elsewhere).
     */
    @Test
    @EnabledOnOs(OS.LINUX)
    void countsDropsOfAFullReceiveBuffer() throws IOException {
        int sent = 2000;
        try (DatagramSocket rx = new DatagramSocket(null); DatagramSocket tx = new DatagramSocket(null)) {
            rx.setReceiveBufferSize(4096);
            rx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            tx.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            InetSocketAddress to = (InetSocketAddress) rx.getLocalSocketAddress();
            byte[] payload = new byte[1000];
            for (int i = 0; i < sent; i++) {
                tx.send(new DatagramPacket(payload, payload.length, to));
            }
            int drained = drain(rx);
            UdpSocketDrops.Reading r = UdpSocketDrops.of(to);
            assertThat(r.unknownReason()).isEmpty();
            assertThat(r.drops()).isPositive().isEqualTo(sent - drained);
        }
    }

    @Test
    @EnabledOnOs(OS.LINUX)
    void unboundPortOfThisHostIsNotFound() throws IOException {
        InetSocketAddress gone;
        try (DatagramSocket s = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            gone = (InetSocketAddress) s.getLocalSocketAddress();
        }
        assertThat(UdpSocketDrops.of(gone).unknownReason()).startsWith("no socket bound to 127.0.0.1:")
                .endsWith("in /proc/net/udp or /proc/net/udp6");
    }

    /** @return datagrams the socket yields until none arrives for 200 ms */
    private static int drain(DatagramSocket rx) throws IOException {
        rx.setSoTimeout(200);
        byte[] buf = new byte[2048];
        int n = 0;
        while (true) {
            try {
                rx.receive(new DatagramPacket(buf, buf.length));
                n++;
            } catch (SocketTimeoutException e) {
                return n;
            }
        }
    }

    private static UdpSocketDrops.Reading parse(List<String> lines, String host, int port) {
        String table = lines == UDP6 ? "/proc/net/udp6" : "/proc/net/udp";
        return UdpSocketDrops.parse(lines, address(host, port), ByteOrder.LITTLE_ENDIAN, table);
    }

    private static InetSocketAddress address(String host, int port) {
        return new InetSocketAddress(InetAddresses.literal(host), port);
    }

    /** Parses a numeric literal without a name lookup. */
    private static final class InetAddresses {
        static InetAddress literal(String s) {
            try {
                return InetAddress.getByName(s);
            } catch (IOException e) {
                throw new IllegalArgumentException(s, e);
            }
        }
    }
}
