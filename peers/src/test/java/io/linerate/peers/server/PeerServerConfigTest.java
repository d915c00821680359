package io.linerate.peers.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.iperf2.Iperf2ServerConfig;
import io.linerate.peers.iperf3.Iperf3ServerConfig;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The one check both iperf servers' settings go through; each expected message is written out by
 * hand, and names the tool its server serves.
 */
class PeerServerConfigTest {
    private static final Duration IO = Duration.ofSeconds(10);

    @Test
    void offLoopbackEachServerNeedsAllowFromAndNamesItsOwnCommand() throws Exception {
        InetAddress off = InetAddress.getByName("198.18.0.2");
        assertThatThrownBy(() -> new Iperf3ServerConfig(off, 0, AllowFrom.anyone(), AgentLimits.defaults(), IO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serve --iperf3 binds 198.18.0.2, which is not a loopback address: it needs --allow-from "
                        + "CIDR[,CIDR...], since iperf3 clients cannot send linerate's shared secret");
        assertThatThrownBy(() -> new Iperf2ServerConfig(off, 0, AllowFrom.anyone(), AgentLimits.defaults(), IO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("serve --iperf2 binds 198.18.0.2, which is not a loopback address: it needs --allow-from "
                        + "CIDR[,CIDR...], since iperf 2 clients cannot send linerate's shared secret");
        // with --allow-from the same address is accepted
        assertThat(new Iperf2ServerConfig(off, 5001, AllowFrom.parse("198.18.0.0/15"), AgentLimits.defaults(), IO).port())
                .isEqualTo(5001);
    }

    @Test
    void portAndTimeoutOutOfRangeAreNamedWithTheirRange() {
        InetAddress lo = InetAddress.getLoopbackAddress();
        assertThatThrownBy(() -> new Iperf3ServerConfig(lo, 65536, AllowFrom.anyone(), AgentLimits.defaults(), IO))
                .hasMessage("port 65536 is out of range; allowed: 0 (ephemeral)..65535");
        assertThatThrownBy(() -> new Iperf2ServerConfig(lo, -1, AllowFrom.anyone(), AgentLimits.defaults(), IO))
                .hasMessage("port -1 is out of range; allowed: 0 (ephemeral)..65535");
        // 999 us is under the 1 ms minimum, and named as given, not truncated to 0 ms
        assertThatThrownBy(() -> new Iperf2ServerConfig(lo, 0, AllowFrom.anyone(), AgentLimits.defaults(),
                Duration.ofNanos(999_000))).hasMessage("I/O timeout 999 us is out of range; allowed: 1 ms or more");
        assertThatThrownBy(() -> new Iperf3ServerConfig(lo, 0, null, AgentLimits.defaults(), IO))
                .isInstanceOf(NullPointerException.class).hasMessage("allowFrom");
    }
}
