package io.linerate.peers.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** The CIDR matcher behind {@code --allow-from}; every expected value is worked out by hand in its comment. */
class AllowFromTest {
    private static boolean allows(String csv, String address) throws Exception {
        return AllowFrom.parse(csv).allows(InetAddress.getByName(address));
    }

    @Test
    void ipv4BlocksMatchOnTheirPrefixBits() throws Exception {
        // 198.18.0.0/15 spans 198.18.0.0 .. 198.19.255.255 (the 15th bit is the low bit of 18 = 0b0001001|0)
        assertThat(allows("198.18.0.0/15", "198.18.0.1")).isTrue();
        assertThat(allows("198.18.0.0/15", "198.19.255.255")).isTrue();
        assertThat(allows("198.18.0.0/15", "198.20.0.0")).isFalse();
        assertThat(allows("198.18.0.0/15", "198.17.255.255")).isFalse();
        // /30 on 10.0.0.4: 10.0.0.4 .. 10.0.0.7; 10.0.0.8 has bit 3 of the last byte set
        assertThat(allows("10.0.0.4/30", "10.0.0.7")).isTrue();
        assertThat(allows("10.0.0.4/30", "10.0.0.8")).isFalse();
        // a bare address is a block of one; /0 is everything of that family
        assertThat(allows("127.0.0.1", "127.0.0.1")).isTrue();
        assertThat(allows("127.0.0.1", "127.0.0.2")).isFalse();
        assertThat(allows("0.0.0.0/0", "203.0.113.9")).isTrue();
    }

    @Test
    void ipv6BlocksMatchOnTheirPrefixBits() throws Exception {
        // 2001:2::/48 fixes the first three 16-bit groups 2001:0002:0000
        assertThat(allows("2001:2::/48", "2001:2::1")).isTrue();
        assertThat(allows("2001:2::/48", "2001:2:0:ffff::1")).isTrue();
        assertThat(allows("2001:2::/48", "2001:2:1::1")).isFalse();
        assertThat(allows("2001:2::/48", "2001:3::1")).isFalse();
        // an IPv4 address never matches an IPv6 block, nor the other way round
        assertThat(allows("2001:2::/48", "198.18.0.1")).isFalse();
        assertThat(allows("198.18.0.0/15", "2001:2::1")).isFalse();
    }

    @Test
    void listsMatchAnyBlockAndMappedIpv4MatchesIpv4Blocks() throws Exception {
        assertThat(allows("198.18.0.0/15, 2001:2::/48", "2001:2::5")).isTrue();
        assertThat(allows("198.18.0.0/15, 2001:2::/48", "198.19.0.5")).isTrue();
        assertThat(allows("198.18.0.0/15, 2001:2::/48", "192.0.2.1")).isFalse();
        // ::ffff:198.18.0.1 is how an IPv4 client shows on an IPv6 socket
        assertThat(allows("198.18.0.0/15", "::ffff:198.18.0.1")).isTrue();
        assertThat(AllowFrom.anyone().allows(InetAddress.getByName("192.0.2.1"))).isTrue();
        assertThat(AllowFrom.parse("198.18.0.0/15,2001:2::/48")).hasToString("198.18.0.0/15,2001:2::/48");
    }

    @Test
    void badBlocksAreNamed() {
        assertThatThrownBy(() -> AllowFrom.parse("198.18.0.0/33")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'198.18.0.0/33'").hasMessageContaining("0..32");
        assertThatThrownBy(() -> AllowFrom.parse("2001:2::/129")).hasMessageContaining("0..128");
        assertThatThrownBy(() -> AllowFrom.parse("example.org/24")).hasMessageContaining("'example.org/24'")
                .hasMessageContaining("numeric");
        assertThatThrownBy(() -> AllowFrom.parse("10.0.0.0/8,")).hasMessageContaining("empty entry");
    }

    @Test
    void aBlockWithHostBitsIsRefusedNamingItsNetwork() {
        // 198.18.0.5/24: the low 8 bits (5) are host bits; the network is 198.18.0.0/24
        assertThatThrownBy(() -> AllowFrom.parse("198.18.0.5/24")).hasMessage("--allow-from entry '198.18.0.5/24' "
                + "has host bits set past its /24 prefix; allowed: the network address, 198.18.0.0/24, or "
                + "198.18.0.5/32 for the one host");
        // 198.19.0.0/15: the 15th bit is the low bit of 19 (0b0001001|1); the network is 198.18.0.0/15
        assertThatThrownBy(() -> AllowFrom.parse("198.19.0.0/15")).hasMessageContaining("198.18.0.0/15");
        // 2001:2::1/48: the last group is past the first three groups' 48 bits
        assertThatThrownBy(() -> AllowFrom.parse("2001:2::1/48")).hasMessageContaining("'2001:2::1/48'")
                .hasMessageContaining("2001:2:0:0:0:0:0:0/48").hasMessageContaining("2001:2::1/128");
        // the network address itself, /32 and /0 of 0.0.0.0 are accepted
        assertThat(AllowFrom.parse("198.18.0.0/24,198.18.0.5/32,0.0.0.0/0")).hasToString("198.18.0.0/24,198.18.0.5/32,0.0.0.0/0");
    }
}
