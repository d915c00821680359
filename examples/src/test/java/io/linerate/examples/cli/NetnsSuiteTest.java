package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.netns.NetworkNamespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code loopback --netns}: the fragmenting markers run in a namespace with loopback MTU 1280, which is removed. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NetnsSuiteTest {

    @Test
    void fragmentingMarkersReallyFragmentAndTheNamespaceIsGone() throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));

        LinerateCliTest.Run r = LinerateCliTest.linerate("loopback", "--netns", "--json", "--duration", "200ms",
                "--warmup", "50ms", "--markers", "udp4_frag,udp6_frag,udp4,tcp4,tcp4_nodelay,tcp6,tcp6_nodelay");

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        // the command ran in this JVM, so its namespace is named after this process
        String name = LoopbackCommand.NETNS_PREFIX + ProcessHandle.current().pid();
        assertThat(r.err()).containsPattern("# running in a network namespace of its own \\(held by process \\d+, "
                + "not in ip netns list; it ends with linerate\\), loopback MTU 1280");
        assertThat(NetworkNamespace.list()).doesNotContain(name);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> results = new ArrayList<>();
        for (String line : r.lines()) {
            results.add(json.readTree(line));
        }
        assertThat(results).extracting(n -> n.get("marker").asText()).containsExactly("udp4_frag", "udp6_frag", "udp4", "tcp4",
                "tcp4_nodelay", "tcp6", "tcp6_nodelay");
        for (JsonNode n : results) {
            assertThat(n.has("skipped")).as(n.toString()).isFalse();
            assertThat(n.get("valid").asBoolean()).as(n.toString()).isTrue();
        }
        for (JsonNode frag : results.subList(0, 2)) {
            // a 2000-byte payload over MTU 1280 leaves in exactly two fragments, in both families;
            // the counters cover the whole transfer, warm-up included, as messages_sent does
            assertThat(frag.get("payload").asInt()).isEqualTo(2000);
            assertThat(frag.get("fragments_created").asLong())
                    .isEqualTo(2 * frag.get("messages_sent").asLong()).isPositive();
        }
        // 1220 bytes + headers fit MTU 1280: the plain marker must not report fragments at all
        assertThat(results.get(2).has("fragments_created")).isFalse();
        assertThat(results.get(2).get("payload").asInt()).isEqualTo(1220);
        // each TCP marker writes one full segment of its own family: the MSS at MTU 1280, derived here
        // from a fresh namespace's tcp_timestamps, as the suite's namespace is fresh too
        int options = freshNamespaceHasTimestamps() ? 12 : 0;
        for (JsonNode tcp : results.subList(3, 7)) {
            boolean v4 = tcp.get("marker").asText().startsWith("tcp4");
            int mss = 1280 - (v4 ? 20 : 40) - 20 - options;
            assertThat(tcp.get("payload").asInt()).as(tcp.toString()).isEqualTo(mss);
            assertThat(tcp.get("options").get("tcp_mss").asInt()).as(tcp.toString()).isEqualTo(mss);
        }
        // read from both ends' tcp_info (sock_diag: the native layer is on this module's class path), and
        // equal to the value derived above
        int mss6 = 1280 - 40 - 20 - options;
        assertThat(results.get(5).get("options").get("tcp_mss_source").asText())
                .isEqualTo("read: tcpi_snd_mss " + mss6 + " at the sender, " + mss6 + " at the receiver");
    }

    /** @return whether net.ipv4.tcp_timestamps is on in a network namespace made now, read inside it */
    private static boolean freshNamespaceHasTimestamps() throws Exception {
        try (NetworkNamespace ns = NetworkNamespace.create("linerate-ts-" + ProcessHandle.current().pid(), 1280)) {
            NetworkNamespace.Result r = ns.run(List.of("cat", "/proc/sys/net/ipv4/tcp_timestamps"), Duration.ofSeconds(10));
            assertThat(r.exitCode()).as(r.stderr()).isZero();
            return Integer.parseInt(r.stdout().strip()) != 0;
        }
    }
}
