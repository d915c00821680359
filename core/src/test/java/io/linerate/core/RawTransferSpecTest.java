package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RawTransferSpecTest {

    private static RawTransferSpec.Builder b() {
        return RawTransferSpec.builder("lrt0a", "lrt0b");
    }

    @Test
    void defaults() {
        RawTransferSpec s = b().build();
        assertThat(s.etherTypes()).containsExactly(0x88B5);
        assertThat(s.frameSize()).isEqualTo(1514);
        assertThat(s.bitsPerFrame()).isEqualTo(12_112);
        assertThat(s.rateBitsPerSecond()).isZero();
        assertThat(s.batch()).isEqualTo(64);
        assertThat(s.steer()).isFalse();
        assertThat(s.txRing()).isFalse();
        assertThat(s.retireTimeout()).isEqualTo(Duration.ofMillis(10));
        assertThat(s.idle()).isEmpty();
    }

    @Test
    void anIdleStrategyIsKeptAsGiven() {
        assertThat(b().idle(io.linerate.core.Idle.SLEEP).build().idle()).contains(io.linerate.core.Idle.SLEEP);
        assertThat(b().idle(null).build().idle()).isEmpty();
    }

    @Test
    void badValuesAreNamedWithTheirAllowedRange() {
        assertThatThrownBy(() -> b().frameSize(59).build()).hasMessage(
                "frame size 59 bytes is out of range; allowed: 60..MTU+14 (L2, without FCS)");
        assertThatThrownBy(() -> b().etherTypes(List.of(0x05dc)).build()).hasMessageContaining(
                "ethertype 0x05dc is out of range; allowed: 0x0600..0xffff");
        assertThatThrownBy(() -> b().etherTypes(List.of(0x10000)).build()).hasMessageContaining("ethertype 0x10000 is out of range");
        assertThatThrownBy(() -> b().etherTypes(List.of()).build()).hasMessage("0 ethertypes given; allowed: 1..16");
        assertThatThrownBy(() -> b().etherTypes(List.of(0x88b5, 0x88b5)).build()).hasMessageContaining("ethertype 0x88b5 is given twice");
        assertThatThrownBy(() -> b().batch(1025).build()).hasMessage("batch 1025 is out of range; allowed: 1..1024");
        assertThatThrownBy(() -> b().rateBitsPerSecond(-1).build()).hasMessageContaining("rate -1 bit/s is out of range");
        assertThatThrownBy(() -> b().duration(Duration.ZERO).build()).hasMessage("duration 0 ms is out of range; allowed: 1 ms..86400000 ms");
        assertThatThrownBy(() -> b().retireTimeout(Duration.ofSeconds(2)).build()).hasMessageContaining("retire timeout 2000 ms is out of range");
        assertThatThrownBy(() -> b().destinationMac(new byte[5]).build()).hasMessage("destination MAC has 5 bytes; allowed: 6");
        assertThatThrownBy(() -> RawTransferSpec.builder("an-interface-name-too-long", "b").build())
                .hasMessageContaining("interface name 'an-interface-name-too-long' is not valid; allowed: 1..15 ASCII characters");
    }

    @Test
    void bothEndsMustBeDifferentInterfaces() {
        assertThatThrownBy(() -> RawTransferSpec.builder("veth0", "veth0").build()).hasMessage(
                "the tx and rx interfaces are the same, 'veth0'; allowed: two interfaces joined by a cable or a veth pair");
    }

    @Test
    void aRunMayHaveOneEndButNotNone() {
        RawTransferSpec tx = RawTransferSpec.txOnly("lrt0a").destinationMac(new byte[] {2, 0, 0, 0, 0, 2}).build();
        assertThat(tx.sends()).isTrue();
        assertThat(tx.receives()).isFalse();
        assertThat(tx.rxInterface()).isEmpty();
        RawTransferSpec rx = RawTransferSpec.rxOnly("lrt0b").build();
        assertThat(rx.sends()).isFalse();
        assertThat(rx.receives()).isTrue();
        assertThat(rx.txInterface()).isEmpty();
        assertThat(b().build().sends()).isTrue();
        assertThat(b().build().receives()).isTrue();

        assertThatThrownBy(() -> RawTransferSpec.txOnly("lrt0a").build()).hasMessage(
                "a TX-only run has no RX interface to take the destination MAC from; allowed: the MAC of the receiving "
                        + "interface at the other end, such as 02:00:00:00:00:01");
        assertThatThrownBy(() -> RawTransferSpec.txOnly("lrt0a").destinationMac(new byte[6]).steer(true).build()).hasMessage(
                "steering installs rules on the RX interface, and this run has none; allowed: steering with an RX interface");
        assertThatThrownBy(() -> new RawTransferSpec(java.util.Optional.empty(), java.util.Optional.empty(), List.of(0x88b5), 60,
                java.util.Optional.empty(), java.util.Optional.empty(), 0, Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1),
                1, false, false, false, Duration.ofMillis(10), Duration.ofSeconds(1), false, java.util.Optional.empty(),
                Endpoint.loopback(), java.util.Optional.empty()))
                .hasMessage("no interface given; allowed: a TX interface, an RX interface or both");
    }

    @Test
    void theEndpointIsLoopbackUnlessARemotePeerIsGiven() {
        assertThat(b().build().endpoint()).isEqualTo(Endpoint.loopback());
        // the spec carries the peer as given; whether a transport can reach it is the transport's to say
        Endpoint peer = Endpoint.remote("198.18.0.2", 7001);
        RawTransferSpec remote = RawTransferSpec.txOnly("lrt0a").endpoint(peer).peerInterface("eth1").build();
        assertThat(remote.endpoint()).isEqualTo(peer);
        assertThat(((MeasurementSpec) remote).endpoint()).isEqualTo(peer);
        assertThat(remote.peerInterface()).contains("eth1");
        // the agent tells the MAC of its interface: a remote TX-only spec needs none
        assertThat(remote.destinationMac()).isEmpty();
        assertThat(RawTransferSpec.rxOnly("lrt0b").endpoint(peer).peerInterface("eth1").build().receives()).isTrue();
        assertThatThrownBy(() -> b().endpoint(null)).isInstanceOf(NullPointerException.class).hasMessage("endpoint");
    }

    @Test
    void aRemotePeerNeedsItsInterfaceAndOneEndHere() {
        Endpoint peer = Endpoint.remote("198.18.0.2", 7001);
        assertThatThrownBy(() -> RawTransferSpec.txOnly("lrt0a").endpoint(peer).build()).hasMessageStartingWith(
                "remote peer 198.18.0.2:7001 has no interface named");
        assertThatThrownBy(() -> b().endpoint(peer).peerInterface("eth1").build()).hasMessageStartingWith(
                "a run with remote peer 198.18.0.2:7001 has one end here and one at the peer");
        assertThatThrownBy(() -> b().peerInterface("eth1").build()).hasMessage(
                "peer interface 'eth1' applies to a remote endpoint only; this run drives both interfaces here");
        assertThatThrownBy(() -> RawTransferSpec.txOnly("lrt0a").endpoint(peer).peerInterface("a/b").build())
                .hasMessage("interface name 'a/b' is not valid; allowed: 1..15 ASCII characters without '/'");
    }

    @Test
    void macsParse() {
        assertThat(RawTransferSpec.parseMac("02:00:5e:10:ff:0A")).containsExactly(2, 0, 0x5e, 0x10, 0xff, 0x0a);
        assertThat(RawTransferSpec.parseMac("02-00-00-00-00-01")).containsExactly(2, 0, 0, 0, 0, 1);
        assertThatThrownBy(() -> RawTransferSpec.parseMac("02:00:00:00:00:0g")).hasMessageContaining("MAC '02:00:00:00:00:0g' is not valid");
    }
}
