package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.TwoHosts;
import io.linerate.testsupport.TwoHostsOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The UDP rate search through the agent across a link shaped with {@code tc tbf}: {@link TwoHosts}
 * joins two network namespaces with a veth pair shaped to 200 Mbit/s, the agent runs in a JVM of
 * its own in host B (bound to 198.18.0.2, so with a shared secret), and the search runs in a JVM of
 * its own in host A ({@link TwoHostsSearchPeer}), each trial a stream from A to the agent. Needs
 * Linux and root; skipped with the reason otherwise.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class TwoHostsSearchTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration T = Duration.ofSeconds(240);
    /** tbf's rate, bit/s. */
    private static final long TBF_RATE = 200_000_000L;
    /** tbf's bucket, bytes: 16 KiB, as the loopback search's test (SearchNetnsTest) shapes lo. */
    private static final int TBF_BURST = 16 * 1024;
    /**
     * tbf's queue, bytes: 512 KiB, room for the burst a paced sender lets out after a stall of up to
     * 20 ms (its catch-up bound) at 200 Mbit/s, 500 KB, so that the queue, not the host, sets the rate.
     */
    private static final int TBF_LIMIT = 512 * 1024;
    /** The trial length, s. */
    private static final double TRIAL_S = 0.5;
    private static final int PAYLOAD = 1400;
    /** SO_RCVBUF asked of the agent's receiver, bytes: rides out stalls of its thread on a busy host. */
    private static final int RCVBUF = 4 << 20;

    @TempDir
    static Path dir;

    @Test
    void theFoundRateNeverExceedsWhatTheShapedVethCarriesAndIsAtLeastHalfOfIt() throws Exception {
        TwoHostsOptions options = TwoHostsOptions.builder().mtu(1500).tbf(TBF_RATE, TBF_BURST, TBF_LIMIT).build();
        Optional<String> why = TwoHosts.unavailableReason(options);
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        Path secret = Files.writeString(dir.resolve("secret"), "the search shares this\n");
        JsonNode r;
        try (TwoHosts hosts = TwoHosts.create(options)) {
            int port = TwoHostsAgentStart.startAgent(hosts, TwoHosts.IPV4_B, secret);
            NetworkNamespace.Result c = hosts.exec(hosts.a(), TwoHosts.javaCommand(TwoHostsSearchPeer.class.getName(),
                    List.of(TwoHosts.IPV4_B, Integer.toString(port), secret.toString(), Integer.toString(PAYLOAD),
                            "20000000", "400000000", Long.toString((long) (TRIAL_S * 1000)), Integer.toString(RCVBUF))), T);
            assertThat(c.exitCode()).as(c.stdout() + c.stderr()).isZero();
            List<String> lines = c.stdout().strip().lines().toList();
            r = JSON.readTree(lines.get(lines.size() - 1));
        }

        // tbf on the veth counts every frame as the veth carries it: 14 Ethernet + 20 IPv4 + 8 UDP + payload,
        // so of 200 Mbit/s on the link 1400 / (1400 + 42) is payload: 200e6 * 1400 / 1442 = 194 174 757 bit/s
        assertThat(TwoHostsOptions.ETHERNET_HEADER_BYTES + 20 + 8).isEqualTo(42);
        double goodput = TBF_RATE * (double) PAYLOAD / (PAYLOAD + 42);
        assertThat(goodput).isBetween(194_174_757.0, 194_174_758.0);
        // beyond that rate, a trial gets through at most a full bucket (tbf starts with one) and a full queue
        // (drained after the sender stops; the agent's receiver still counts those datagrams, sent inside the
        // window): (16 + 512) KiB = 4 325 376 bit over the 0.5 s trial, 8 650 752 bit/s, which a rate just
        // above the bound could hide in
        double allowance = (TBF_BURST + TBF_LIMIT) * 8 / TRIAL_S;
        assertThat(allowance).isEqualTo(8_650_752.0);
        assertThat(r.get("confirmed").asBoolean()).as(r.toString()).isTrue();
        long found = r.get("found_bps").asLong();
        System.out.printf(Locale.ROOT, "tbf 200 Mbit/s, UDP 1400 B through the agent: found %.3f Mbit/s, limit %.3f "
                + "Mbit/s, found/limit %.4f%n", found / 1e6, goodput / 1e6, found / goodput);
        assertThat(r.get("carried_bps").asDouble()).as(r.toString()).isLessThanOrEqualTo(goodput + allowance);
        // a trial passes while it achieves the offered rate less the resolution (the default 1% of the upper
        // bound, rounded down) and one 1400-byte message per 0.5 s trial window: the found (offered) rate may be that much above
        JsonNode trials = r.get("trials");
        JsonNode last = trials.get(trials.size() - 1);
        long shortfall = r.get("upper_bps").asLong() / 100 + 8L * PAYLOAD * 2;
        assertThat(last.get("allowed_shortfall_bps").asLong()).isEqualTo(shortfall);
        assertThat((double) found).as(r.toString()).isLessThanOrEqualTo(goodput + allowance + shortfall);
        // at least half of it, unless the host set the rate: when the lowest failing trial failed because the
        // sender fell short of the offered rate (a starved CPU), that trial says so, and the link was never
        // the limit
        JsonNode upper = null;
        for (JsonNode t : r.get("trials")) {
            if (t.get("offered_bps").asLong() == r.get("upper_bps").asLong() && !t.get("verdict").asText().equals("pass")) {
                upper = t;
            }
        }
        boolean hostBound = upper != null && upper.get("verdict").asText().equals("shortfall");
        if (!hostBound) {
            assertThat((double) found).as(r.toString()).isGreaterThanOrEqualTo(goodput / 2);
        }
        // the last trial is the confirm trial at the found rate, with nothing lost: the agent's receiver
        // counted every datagram this host sent in the window
        assertThat(last.get("phase").asText()).isEqualTo("confirm");
        assertThat(last.get("offered_bps").asLong()).isEqualTo(found);
        assertThat(last.get("lost").asLong()).isZero();
        assertThat(last.get("received").asLong()).isEqualTo(last.get("sent").asLong()).isPositive();
    }

}
