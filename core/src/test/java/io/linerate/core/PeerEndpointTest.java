package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A spec's endpoint names its peer: the agent, an iperf3 or an iperf 2 server, each with its own typed options. */
class PeerEndpointTest {
    private static final Endpoint.Remote AT = Endpoint.parse("198.18.0.2:7001");
    private static final String SECRET = "do-not-print-9b2e";

    @Test
    void theAgentsSecretIsNeverPrinted() {
        AgentPeer peer = AgentPeer.builder(AT).secret(PeerSecret.of(SECRET.getBytes(StandardCharsets.US_ASCII)))
                .direction(PeerDirection.REVERSE).streams(4).build();
        TransferSpec spec = TransferSpec.builder().endpoint(peer).build();

        assertThat(peer.toString()).isEqualTo("198.18.0.2:7001");
        assertThat(peer.secret().orElseThrow().toString()).isEqualTo("secret");
        assertThat(spec.toString()).endsWith(" peer=198.18.0.2:7001").doesNotContain(SECRET);
        assertThat(spec.toBuilder().build().endpoint()).isEqualTo(peer);
    }

    @Test
    void aSecretKeepsItsBytesAndACopyCannotChangeThem() {
        byte[] b = SECRET.getBytes(StandardCharsets.US_ASCII);
        PeerSecret s = PeerSecret.of(b);
        b[0] = 'X';
        s.bytes()[1] = 'Y';
        assertThat(new String(s.bytes(), StandardCharsets.US_ASCII)).isEqualTo(SECRET);
        assertThat(s).isEqualTo(PeerSecret.of(SECRET.getBytes(StandardCharsets.US_ASCII)));
        assertThatThrownBy(() -> PeerSecret.of(new byte[0])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("0 bytes long; allowed: 1 byte or more");
    }

    @Test
    void everyPeerHasItsAddressAndLoopbackNone() {
        assertThat(Endpoint.loopback().remoteAddress()).isEmpty();
        assertThat(AT.remoteAddress()).contains(AT);
        assertThat(AgentPeer.builder(AT).build().remoteAddress()).contains(AT);
        assertThat(Iperf3Peer.builder(AT).build().remoteAddress()).contains(AT);
        assertThat(Iperf2Peer.at(AT).remoteAddress()).contains(AT);
        assertThat(Iperf2Peer.at(AT).header()).isEqualTo(Iperf2UdpHeader.SEQ64);
    }

    @Test
    void outOfRangeOptionsAreNamed() {
        assertThatThrownBy(() -> AgentPeer.builder(AT).streams(129).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parallel streams 129 is out of range; allowed: 1..128");
        assertThatThrownBy(() -> AgentPeer.builder(AT).direction(PeerDirection.BOTH).streams(2).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed: 1");
        assertThatThrownBy(() -> Iperf3Peer.builder(AT).parallel(0).build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("parallel streams 0 is out of range; allowed: 1..128");
        assertThatThrownBy(() -> Iperf3Peer.builder(AT).tcpDrain(Duration.ofMillis(-1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allowed: 0 or more");
    }

    @Test
    void iperf3PeerBuilderKeepsEveryField() {
        Iperf3Peer p = Iperf3Peer.builder(AT).direction(PeerDirection.BOTH).parallel(3).udpCounters64Bit(true)
                .tcpDrain(Duration.ofMillis(200)).build();
        assertThat(p).isEqualTo(new Iperf3Peer(AT, PeerDirection.BOTH, 3, true, Duration.ofMillis(200)));
    }
}
