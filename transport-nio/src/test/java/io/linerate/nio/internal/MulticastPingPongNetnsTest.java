package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.live.LiveCounters;
import io.linerate.netns.NetworkNamespace;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A UDP multicast ping-pong (sfnt-pingpong's {@code --mcast}, {@code --mcastintf},
 * {@code --mcastloop}) with both ends in a JVM inside a network namespace this test makes (root),
 * whose loopback carries multicast: {@code ip link set lo multicast on} and a route of 224.0.0.0/4
 * through it. The group is administratively scoped (239.0.0.0/8, RFC 2365).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class MulticastPingPongNetnsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP = "239.1.2.3";
    /** Bound on a child's run: JVM start and the sweep, on a loaded host. */
    private static final Duration CHILD_BOUND = Duration.ofSeconds(180);

    @Test
    void theRoundTripsOfEverySizeTravelAsMulticastAndTheLoopFlagIsReadBackAsSet() throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        try (NetworkNamespace ns = NetworkNamespace.create("linerate-mcast-" + ProcessHandle.current().pid(), 65536)) {
            ns.check(List.of(NetworkNamespace.tool("ip"), "link", "set", "lo", "up"));
            ns.check(List.of(NetworkNamespace.tool("ip"), "link", "set", "lo", "multicast", "on"));
            ns.check(List.of(NetworkNamespace.tool("ip"), "route", "add", "224.0.0.0/4", "dev", "lo"));
            for (boolean loop : List.of(false, true)) {
                long in0 = multicastPacketsReceived(ns);
                // sfnt-pingpong's CLIENT_IF;SERVER_IF form, both the namespace's loopback
                Child c = run(ns, "lo;lo", loop);
                long in1 = multicastPacketsReceived(ns);
                int perSize = MulticastPingPongChild.WARMUP_ITERATIONS + MulticastPingPongChild.ITERATIONS;
                long roundTrips = (long) perSize * MulticastPingPongChild.SIZES.size();
                // every round trip is one ping the server answered and one pong: count identity of both ends
                assertThat(c.answered()).as(c.output()).isEqualTo(roundTrips);
                assertThat(c.json().path("results").findValues("iterations")).extracting(JsonNode::asLong)
                        .as(c.output()).containsExactly(200L, 200L, 200L);
                // both datagrams of each round trip were addressed to the group (IpExtInMcastPkts, RFC 4293's
                // ipSystemStatsHCInMcastPkts); the kernel's own multicast may add to it
                assertThat(in1 - in0).as(c.output()).isGreaterThanOrEqualTo(2 * roundTrips);
                JsonNode m = c.json().path("multicast");
                assertThat(m.path("group").asText()).isEqualTo(GROUP);
                assertThat(m.path("client_interface_requested").asText()).isEqualTo("lo");
                assertThat(m.path("server_interface_requested").asText()).isEqualTo("lo");
                assertThat(m.path("client_interface_applied").asText()).isEqualTo("lo");
                assertThat(m.path("server_interface_applied").asText()).isEqualTo("lo");
                assertThat(m.path("loop_requested").asBoolean()).isEqualTo(loop);
                assertThat(m.path("client_loop_applied").isBoolean()).isTrue();
                assertThat(m.path("client_loop_applied").asBoolean()).isEqualTo(loop);
                assertThat(m.path("server_loop_applied").asBoolean()).isEqualTo(loop);
                assertThat(c.json().path("connect").asBoolean(true)).isFalse();
                assertThat(c.json().path("facts").path("options").asText()).contains("group " + GROUP);
            }
        }
    }

    private record Child(long answered, JsonNode json, String output) {}

    private static Child run(NetworkNamespace ns, String interfaces, boolean loop) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = List.of(java, LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"),
                MulticastPingPongChild.class.getName(), GROUP, interfaces, Boolean.toString(loop));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = ns.exec(cmd, CHILD_BOUND, new PrintWriter(out), new PrintWriter(err));
        String output = out + err.toString();
        List<String> lines = out.toString().lines().toList();
        if (rc != 0 || lines.size() != 2) {
            throw new IOException("the multicast ping-pong in namespace " + ns.name() + " exited with " + rc + ": "
                    + output);
        }
        return new Child(Long.parseLong(lines.get(0).strip()), JSON.readTree(lines.get(1)), output);
    }

    /** @return the namespace's IpExtInMcastPkts, its absolute value ({@code nstat -a}, history untouched by {@code -s}) */
    private static long multicastPacketsReceived(NetworkNamespace ns) throws IOException {
        NetworkNamespace.Result r = ns.check(List.of(NetworkNamespace.tool("nstat"), "-asz", "-j", "IpExtInMcastPkts"));
        JsonNode v = JSON.readTree(r.stdout()).path("kernel").path("IpExtInMcastPkts");
        if (!v.isIntegralNumber()) {
            throw new IOException("nstat printed no IpExtInMcastPkts in namespace " + ns.name() + ": " + r.stdout());
        }
        return v.asLong();
    }
}
