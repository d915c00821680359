package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import org.junit.jupiter.api.Test;

/** The MSS from the MTU and TCP timestamps, and how it reads, against values worked out by hand and {@code ss -ti}. */
class TcpMssDerivationTest {
    @Test
    void theNamespaceLoopbackWithTimestamps() {
        // loopback MTU 1280 with TCP timestamps, as `ss -ti` shows in such a namespace:
        // IPv6 1280 - 40 - 20 - 12 = 1208, IPv4 1280 - 20 - 20 - 12 = 1228
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV6, 1280, true).bytes()).isEqualTo(1208);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV4, 1280, true).bytes()).isEqualTo(1228);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV6, 1280, true).derivation())
                .isEqualTo("derived: MTU 1280 - 40 IPv6 - 20 TCP - 12 timestamps");
    }

    @Test
    void theHostLoopback() {
        // MTU 65536: IPv6 65536 - 40 - 20 - 12 = 65464; an IPv4 datagram holds at most 65535 bytes,
        // so IPv4 65535 - 20 - 20 - 12 = 65483 (both the advmss `ss -ti` shows on the host's lo)
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV6, 65536, true).bytes()).isEqualTo(65464);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV4, 65536, true).bytes()).isEqualTo(65483);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV4, 65536, true).derivation())
                .isEqualTo("derived: MTU 65536 (an IPv4 datagram holds 65535) - 20 IPv4 - 20 TCP - 12 timestamps");
    }

    @Test
    void withoutTimestamps() {
        // Ethernet's 1500 without options: 1500 - 20 - 20 = 1460, 1500 - 40 - 20 = 1440
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV4, 1500, false).bytes()).isEqualTo(1460);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV6, 1500, false).bytes()).isEqualTo(1440);
        assertThat(TcpMssDerivation.derive(AddressFamily.IPV4, 1500, false).derivation())
                .isEqualTo("derived: MTU 1500 - 20 IPv4 - 20 TCP, no timestamps");
    }

    @Test
    void anMtuWithoutRoomForPayloadIsRefused() {
        // IPv6 with timestamps needs 40 + 20 + 12 + 1 = 73 bytes for one byte of payload
        assertThatThrownBy(() -> TcpMssDerivation.derive(AddressFamily.IPV6, 72, true))
                .hasMessage("MTU 72 bytes leaves no room for TCP payload over IPv6 with 12 option bytes; allowed: 73 bytes or more");
    }
}
