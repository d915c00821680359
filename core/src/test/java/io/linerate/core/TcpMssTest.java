package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The MSS a transport found, read back: bytes and derivation from the record's own fields. */
class TcpMssTest {
    @Test
    void anMssReadFromTheSocketsIsTheSendersAndSaysSo() {
        TcpMss m = TcpMss.read(AddressFamily.IPV4, 1348, 1336, "TCP_MAXSEG");
        assertThat(m.bytes()).isEqualTo(1348);
        assertThat(m.read()).hasValue(new TcpMss.Read(1348, 1336, "TCP_MAXSEG"));
        assertThat(m.derivation()).isEqualTo("read: TCP_MAXSEG 1348 at the sender, 1336 at the receiver");
        assertThat(new TcpMss(AddressFamily.IPV4, 1400, 12).read()).isEmpty();
        assertThatThrownBy(() -> TcpMss.read(AddressFamily.IPV4, 0, 1336, "TCP_MAXSEG"))
                .hasMessage("an MSS read as 0 B at the sender and 1336 B at the receiver is out of range; allowed: 1 byte or more");
    }

    @Test
    void bytesAreTheMtuLessTheHeadersAndOptions() {
        // 1500 - 20 - 20 - 12 = 1448 over IPv4; 9000 - 40 - 20 = 8940 over IPv6
        assertThat(new TcpMss(AddressFamily.IPV4, 1500, 12).bytes()).isEqualTo(1448);
        assertThat(new TcpMss(AddressFamily.IPV6, 9000, 0).bytes()).isEqualTo(8940);
        assertThat(new TcpMss(AddressFamily.IPV6, 9000, 0).derivation())
                .isEqualTo("derived: MTU 9000 - 40 IPv6 - 20 TCP, no timestamps");
    }

    @Test
    void optionsOutOfRangeAreRefused() {
        assertThatThrownBy(() -> new TcpMss(AddressFamily.IPV4, 1500, 41))
                .hasMessage("TCP option bytes 41 are out of range; allowed: 0..40");
        assertThatThrownBy(() -> new TcpMss(AddressFamily.IPV4, 1500, -1))
                .hasMessage("TCP option bytes -1 are out of range; allowed: 0..40");
    }

    @Test
    void aDerivedMssSaysWhyItWasNotReadAndAReadOneHasNoSuchReason() {
        TcpMss derived = new TcpMss(AddressFamily.IPV4, 1500, 12).withUnreadBecause("no TCP_INFO source on the class path");
        assertThat(derived.bytes()).isEqualTo(1500 - 20 - 20 - 12);
        assertThat(derived.derivation())
                .isEqualTo("derived: MTU 1500 - 20 IPv4 - 20 TCP - 12 timestamps; not read: no TCP_INFO source on the class path");
        assertThat(new TcpMss(AddressFamily.IPV4, 1500, 12).derivation()).doesNotContain("not read");
        assertThatThrownBy(() -> TcpMss.read(AddressFamily.IPV4, 1448, 1448, "tcpi_snd_mss").withUnreadBecause("x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed: empty");
    }
}
