package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EndpointTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "198.18.0.2:7001|198.18.0.2|7001",
        "peer.example:1|peer.example|1",
        "[2001:2::2]:65535|2001:2::2|65535",
    })
    void parsesHostAndPort(String text, String host, int port) {
        assertThat(Endpoint.parse(text)).isEqualTo(Endpoint.remote(host, port));
        assertThat(Endpoint.parse(text)).hasToString(text);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "198.18.0.2|peer '198.18.0.2' is not HOST:PORT; allowed: name:port, IPv4:port or [IPv6]:port, port 1..65535",
        "2001:2::2:7001|peer '2001:2::2:7001' is not HOST:PORT; allowed: name:port, IPv4:port or [IPv6]:port, port 1..65535",
        "[2001:2::2]7001|peer '[2001:2::2]7001' is not HOST:PORT; allowed: name:port, IPv4:port or [IPv6]:port, port 1..65535",
        "host:0|peer port 0 is out of range; allowed: 1..65535",
        "host:65536|peer port 65536 is out of range; allowed: 1..65535",
        "host:x1|peer port 'x1' in 'host:x1' is not a number; allowed: 1..65535",
        "host:|peer port '' in 'host:' is not a number; allowed: 1..65535",
        "[]:5|peer host '' is not a host name or address",
    })
    void refusesMalformedPeersNamingTheValue(String text, String message) {
        assertThatThrownBy(() -> Endpoint.parse(text)).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }

    @Test
    void aSpecIsLoopbackUnlessToldOtherwise() {
        assertThat(TransferSpec.builder().build().endpoint()).isEqualTo(Endpoint.loopback());
        TransferSpec remote = TransferSpec.builder().endpoint(Endpoint.parse("[2001:2::2]:7001")).build();
        assertThat(remote.endpoint()).isEqualTo(Endpoint.remote("2001:2::2", 7001));
        assertThat(remote.toString()).endsWith(" peer=[2001:2::2]:7001");
        assertThat(remote.toBuilder().build().endpoint()).isEqualTo(remote.endpoint());
    }
}
