package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link PingPongSpec#bindToDevice()}: an interface name of IFNAMSIZ - 1 bytes at most, for tcp and udp. */
class PingPongBindToDeviceTest {

    @Test
    void aNameOfFifteenBytesIsTheLongestAllowed() {
        // IFNAMSIZ is 16 in <net/if.h>, its last byte the terminating NUL
        String fifteen = "abcdefghijklmno";
        assertThat(PingPongSpec.builder().bindToDevice(fifteen).build().bindToDevice()).contains(fifteen);
        assertThatThrownBy(() -> PingPongSpec.builder().bindToDevice(fifteen + "p").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bindtodev interface name 'abcdefghijklmnop' (16 bytes) is not an interface name; allowed: "
                        + "1..15 bytes (IFNAMSIZ less its NUL), no whitespace or '/'");
    }

    @Test
    void bytesNotCharactersCount() {
        // 'é' is 2 bytes in UTF-8: 8 of them are 16 bytes, one more than IFNAMSIZ allows
        assertThatThrownBy(() -> PingPongSpec.builder().bindToDevice("éééééééé").build())
                .hasMessageContaining("(16 bytes)");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"' '|1", "'eth 0'|5", "'a/b'|3", "''|0"})
    void blankNamesAndNamesWithWhitespaceOrSlashAreRefused(String name, int bytes) {
        assertThatThrownBy(() -> PingPongSpec.builder().bindToDevice(name).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("bindtodev interface name '" + name + "' (" + bytes + " bytes) is not an interface name");
    }

    @Test
    void onlyIpProtocolsTakeADevice() {
        assertThat(PingPongSpec.builder().protocol(PingPongProtocol.UDP).bindToDevice("lo").build().bindToDevice())
                .contains("lo");
        assertThatThrownBy(() -> PingPongSpec.builder().protocol(PingPongProtocol.UNIX_DATAGRAM).bindToDevice("lo").build())
                .hasMessage("bindtodev lo applies to tcp and udp only, not unix_datagram");
        assertThat(PingPongSpec.builder().build().bindToDevice()).isEmpty();
    }

    @Test
    void onlyIpProtocolsTakeATrafficClassOrIpv6() {
        assertThatThrownBy(() -> PingPongSpec.builder().protocol(PingPongProtocol.UNIX_DATAGRAM).trafficClass(0x20).build())
                .hasMessage("traffic class 0x20 applies to tcp and udp only, not unix_datagram, which carries no IP "
                        + "header; allowed: --protocol tcp or udp");
        assertThatThrownBy(() -> PingPongSpec.builder().protocol(PingPongProtocol.PIPE).family(AddressFamily.IPV6).build())
                .hasMessage("family IPv6 applies to tcp and udp only, not pipe, which carries no IP header; allowed: "
                        + "--protocol tcp or udp");
        assertThat(PingPongSpec.builder().protocol(PingPongProtocol.UDP).family(AddressFamily.IPV6).trafficClass(0x20)
                .build().trafficClass()).isEqualTo(0x20);
    }
}
