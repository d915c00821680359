package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/** sfnt-pingpong's multicast options and --connect of a ping-pong spec: how they read and what they refuse. */
class PingPongMulticastTest {
    private static PingPongSpec.Builder udp() {
        return PingPongSpec.builder().protocol(PingPongProtocol.UDP);
    }

    @Test
    void oneInterfaceIsBothEndsAndTwoAreClientThenServerAsSfntPingpongReadsThem() {
        PingPongMulticast both = PingPongMulticast.parse("239.1.2.3", "eth2", false, AddressFamily.IPV4);
        assertThat(both.clientInterface()).contains("eth2");
        assertThat(both.serverInterface()).contains("eth2");
        PingPongMulticast two = PingPongMulticast.parse("239.1.2.3", "eth2;eth3", true, AddressFamily.IPV4);
        assertThat(two.clientInterface()).contains("eth2");
        assertThat(two.serverInterface()).contains("eth3");
        assertThat(two.loop()).isTrue();
        assertThat(two.group().getHostAddress()).isEqualTo("239.1.2.3");
        PingPongMulticast none = PingPongMulticast.parse("239.1.2.3", null, false, AddressFamily.IPV4);
        assertThat(none.clientInterface()).isEmpty();
        assertThat(none.serverInterface()).isEmpty();
        assertThat(none).hasToString("group 239.1.2.3, client interface (loopback), server interface (loopback), "
                + "loop off");
    }

    @Test
    void anInterfaceWithoutAGroupTakesSfntPingpongsGroupOfTheFamily() {
        assertThat(PingPongMulticast.parse(null, "eth2", false, AddressFamily.IPV4).group().getHostAddress())
                .isEqualTo("224.1.2.48");
        assertThat(PingPongMulticast.parse(null, "eth2", false, AddressFamily.IPV6).group().getHostAddress())
                .isEqualTo("ff05:0:0:0:0:0:0:142");
    }

    @Test
    void aGroupOutsideTheMulticastRangesIsRefusedNamingIt() {
        assertThatThrownBy(() -> PingPongMulticast.parse("198.18.0.1", null, false, AddressFamily.IPV4))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("mcast group 198.18.0.1 is not a multicast address; allowed: 224.0.0.0/4 (IPv4) or "
                        + "ff00::/8 (IPv6)");
        assertThatThrownBy(() -> PingPongMulticast.parse("2001:2::1", null, false, AddressFamily.IPV6))
                .hasMessageStartingWith("mcast group 2001:2:0:0:0:0:0:1 is not a multicast address");
        assertThatThrownBy(() -> PingPongMulticast.parse("group.example", null, false, AddressFamily.IPV4))
                .hasMessage("mcast group 'group.example' is not an address literal; allowed: an IPv4 address in "
                        + "224.0.0.0/4 or an IPv6 address in ff00::/8");
    }

    @Test
    void badInterfaceListsAreRefusedNamingTheValue() {
        assertThatThrownBy(() -> PingPongMulticast.parse("239.1.2.3", "a;b;c", false, AddressFamily.IPV4))
                .hasMessage("mcastintf 'a;b;c' has 3 values; allowed: IF (both ends) or CLIENT_IF;SERVER_IF");
        assertThatThrownBy(() -> PingPongMulticast.parse("239.1.2.3", "eth0;", false, AddressFamily.IPV4))
                .hasMessage("mcastintf '' is not an interface name; allowed: 1..15 characters without blanks or ';'");
        assertThatThrownBy(() -> PingPongMulticast.parse("239.1.2.3", "abcdefghijklmnop", false, AddressFamily.IPV4))
                .hasMessage("mcastintf 'abcdefghijklmnop' is not an interface name; allowed: 1..15 characters "
                        + "without blanks or ';'");
    }

    @Test
    void theGroupMustBeOfTheSpecsFamily() {
        PingPongMulticast v6 = PingPongMulticast.parse("ff15::7", null, false, AddressFamily.IPV6);
        assertThatThrownBy(() -> udp().multicast(v6).build())
                .hasMessage("mcast group ff15:0:0:0:0:0:0:7 is not an IPv4 group; allowed: 224.0.0.0/4 with IPv4");
        PingPongMulticast v4 = PingPongMulticast.parse("239.1.2.3", null, false, AddressFamily.IPV4);
        assertThatThrownBy(() -> udp().family(AddressFamily.IPV6).multicast(v4).build())
                .hasMessage("mcast group 239.1.2.3 is not an IPv6 group; allowed: ff00::/8 with IPv6");
        assertThat(udp().multicast(v4).build().multicast()).contains(v4);
    }

    @Test
    void multicastAndConnectApplyToUdpOnly() {
        PingPongMulticast g = PingPongMulticast.parse("239.1.2.3", null, false, AddressFamily.IPV4);
        assertThatThrownBy(() -> PingPongSpec.builder().multicast(g).build())
                .hasMessage("mcast applies to udp ping-pong; the protocol is tcp; allowed: --protocol udp");
        assertThatThrownBy(() -> PingPongSpec.builder().protocol(PingPongProtocol.PIPE).connect(true).build())
                .hasMessage("connect applies to udp ping-pong; the protocol is pipe; allowed: --protocol udp");
        assertThat(udp().connect(true).build().connect()).isTrue();
        assertThat(udp().build().connect()).isFalse();
        assertThat(udp().build().multicast()).isEqualTo(Optional.empty());
    }

    @Test
    void connectIsRefusedWithMulticastAsAConnectedSocketWouldReceiveNothing() {
        PingPongMulticast g = PingPongMulticast.parse("239.1.2.3", null, false, AddressFamily.IPV4);
        assertThatThrownBy(() -> udp().multicast(g).connect(true).build())
                .hasMessage("connect does not apply with mcast 239.1.2.3: a socket connected to a group receives no "
                        + "datagram, as no sender's source address is the group; allowed: one of --connect, --mcast");
    }
}
