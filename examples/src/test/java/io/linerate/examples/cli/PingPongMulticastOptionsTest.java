package io.linerate.examples.cli;

import static io.linerate.examples.cli.PingPongCommandTest.pingpong;
import static io.linerate.examples.cli.PingPongCommandTest.withShort;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.PingPongSpec;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;

/**
 * {@code linerate pingpong}'s sfnt-pingpong options {@code --mcast}, {@code --mcastintf},
 * {@code --mcastloop} and {@code --connect}: how they make the spec and what they refuse. No
 * multicast datagram is sent here (the namespace test of the NIO transport sends them).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class PingPongMulticastOptionsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theOptionsMakeTheSpecWithTheClientsInterfaceFirstAsSfntPingpong() {
        PingPongCommand c = new PingPongCommand();
        new CommandLine(c).parseArgs("--protocol", "udp", "--mcast", "239.1.2.3", "--mcastintf", "eth2;eth3",
                "--mcastloop");
        PingPongSpec spec = c.spec();
        assertThat(spec.multicast()).hasValueSatisfying(m -> {
            assertThat(m.group().getHostAddress()).isEqualTo("239.1.2.3");
            assertThat(m.clientInterface()).contains("eth2");
            assertThat(m.serverInterface()).contains("eth3");
            assertThat(m.loop()).isTrue();
        });
        assertThat(spec.connect()).isFalse();
        assertThat(spec.toString()).contains("multicast=Optional[group 239.1.2.3, client interface eth2, "
                + "server interface eth3, loop on]");

        PingPongCommand connected = new PingPongCommand();
        new CommandLine(connected).parseArgs("--protocol", "udp", "--connect");
        assertThat(connected.spec().connect()).isTrue();
        assertThat(connected.spec().multicast()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "--protocol udp --mcastloop|--mcastloop sets IP_MULTICAST_LOOP of a multicast ping-pong; allowed: with --mcast ADDR or --mcastintf IF",
        "--mcast 239.1.2.3|mcast applies to udp ping-pong; the protocol is tcp; allowed: --protocol udp",
        "--connect|connect applies to udp ping-pong; the protocol is tcp; allowed: --protocol udp",
        "--protocol udp --mcast 198.18.0.1|mcast group 198.18.0.1 is not a multicast address; allowed: 224.0.0.0/4 (IPv4) or ff00::/8 (IPv6)",
        "--protocol udp --mcast ff15::7|mcast group ff15:0:0:0:0:0:0:7 is not an IPv4 group; allowed: 224.0.0.0/4 with IPv4",
        "--protocol udp --mcast 239.1.2.3 --connect|connect does not apply with mcast 239.1.2.3",
        "--protocol udp --mcastintf a;b;c|mcastintf 'a;b;c' has 3 values; allowed: IF (both ends) or CLIENT_IF;SERVER_IF",
        "--protocol udp --mcast 239.1.2.3 --mcastintf linerate-none0|mcastintf linerate-none0 is not an interface of this host; allowed: one of ",
        "--protocol udp --mcast 239.1.2.3 --peer 198.18.0.2:7000|mcast 239.1.2.3 does not run with a peer: the agent's echo end does not join multicast groups",
    })
    void badUsageNamesTheValueAndExitsTwo(String args, String message) {
        PingPongCommandTest.Run r = pingpong(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    void aConnectedUdpPingPongOverLoopbackSaysSoInItsJsonAndAppliedLine() throws Exception {
        PingPongCommandTest.Run r = pingpong(withShort("--protocol", "udp", "--connect", "--sizes", "1,64", "--json"));
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out()).path("detail");
        assertThat(j.path("connect").asBoolean(false)).as(r.out()).isTrue();
        assertThat(j.path("results").findValues("iterations")).extracting(JsonNode::asLong).containsExactly(200L, 200L);
        PingPongCommandTest.Run text = pingpong(withShort("--protocol", "udp", "--sizes", "1"));
        assertThat(text.exit()).as(text.err()).isZero();
        assertThat(text.out()).contains(", connect false");
    }

    @Test
    void theHelpNamesEachOption() {
        PingPongCommandTest.Run r = pingpong("--help");
        // picocli wraps the description at blanks and after a ';'
        assertThat(r.out().replaceAll(";\\s+", ";")).contains("--mcast=ADDR", "--mcastintf=IF[;IF]", "--mcastloop",
                "--connect", "CLIENT_IF;SERVER_IF", "IP_MULTICAST_LOOP", "224.0.0.0/4 or ff00::/8");
    }
}
