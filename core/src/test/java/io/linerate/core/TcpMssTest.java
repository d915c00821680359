package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class TcpMssTest {
    @Test
    void anMssReadFromTheSocketsIsTheSendersAndSaysSo() {
        TcpMss m = TcpMss.read(AddressFamily.IPV4, 1348, 1336, "TCP_MAXSEG");
        assertThat(m.bytes()).isEqualTo(1348);
        assertThat(m.read()).hasValue(new TcpMss.Read(1348, 1336, "TCP_MAXSEG"));
        assertThat(m.derivation()).isEqualTo("read: TCP_MAXSEG 1348 at the sender, 1336 at the receiver");
        assertThat(TcpMss.derive(AddressFamily.IPV4, 1400, true).read()).isEmpty();
        assertThatThrownBy(() -> TcpMss.read(AddressFamily.IPV4, 0, 1336, "TCP_MAXSEG"))
                .hasMessage("an MSS read as 0 B at the sender and 1336 B at the receiver is out of range; allowed: 1 byte or more");
    }

    @Test
    void theNamespaceLoopbackWithTimestamps() {
        // loopback MTU 1280 with TCP timestamps, as `ss -ti` shows in such a namespace:
        // IPv6 1280 - 40 - 20 - 12 = 1208, IPv4 1280 - 20 - 20 - 12 = 1228
        assertThat(TcpMss.derive(AddressFamily.IPV6, 1280, true).bytes()).isEqualTo(1208);
        assertThat(TcpMss.derive(AddressFamily.IPV4, 1280, true).bytes()).isEqualTo(1228);
        assertThat(TcpMss.derive(AddressFamily.IPV6, 1280, true).derivation())
                .isEqualTo("derived: MTU 1280 - 40 IPv6 - 20 TCP - 12 timestamps");
    }

    @Test
    void theHostLoopback() {
        // MTU 65536: IPv6 65536 - 40 - 20 - 12 = 65464; an IPv4 datagram holds at most 65535 bytes,
        // so IPv4 65535 - 20 - 20 - 12 = 65483 (both the advmss `ss -ti` shows on the host's lo)
        assertThat(TcpMss.derive(AddressFamily.IPV6, 65536, true).bytes()).isEqualTo(65464);
        assertThat(TcpMss.derive(AddressFamily.IPV4, 65536, true).bytes()).isEqualTo(65483);
        assertThat(TcpMss.derive(AddressFamily.IPV4, 65536, true).derivation())
                .isEqualTo("derived: MTU 65536 (an IPv4 datagram holds 65535) - 20 IPv4 - 20 TCP - 12 timestamps");
    }

    @Test
    void withoutTimestamps() {
        // Ethernet's 1500 without options: 1500 - 20 - 20 = 1460, 1500 - 40 - 20 = 1440
        assertThat(TcpMss.derive(AddressFamily.IPV4, 1500, false).bytes()).isEqualTo(1460);
        assertThat(TcpMss.derive(AddressFamily.IPV6, 1500, false).bytes()).isEqualTo(1440);
        assertThat(TcpMss.derive(AddressFamily.IPV4, 1500, false).derivation())
                .isEqualTo("derived: MTU 1500 - 20 IPv4 - 20 TCP, no timestamps");
    }

    @Test
    void anMtuWithoutRoomForPayloadIsRefused() {
        // IPv6 with timestamps needs 40 + 20 + 12 + 1 = 73 bytes for one byte of payload
        assertThatThrownBy(() -> TcpMss.derive(AddressFamily.IPV6, 72, true))
                .hasMessage("MTU 72 bytes leaves no room for TCP payload over IPv6 with 12 option bytes; allowed: 73 bytes or more");
    }
}
