package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.nio.NetworkNamespace;
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
                "--warmup", "50ms", "--markers", "udp4_frag,udp6_frag,udp4,tcp4,tcp6");

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
        assertThat(results).extracting(n -> n.get("marker").asText()).containsExactly("udp4_frag", "udp6_frag", "udp4", "tcp4", "tcp6");
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
        // MTU 1280 with TCP timestamps (a new namespace's default): MSS 1280 - 20 - 20 - 12 = 1228 over
        // IPv4 and 1280 - 40 - 20 - 12 = 1208 over IPv6, as `ss -ti` shows; both TCP markers write
        // the smaller, 1208 bytes, so no write leaves a runt segment in either family
        JsonNode tcp4 = results.get(3);
        JsonNode tcp6 = results.get(4);
        assertThat(tcp4.get("options").get("tcp_mss").asInt()).isEqualTo(1228);
        assertThat(tcp6.get("options").get("tcp_mss").asInt()).isEqualTo(1208);
        assertThat(tcp6.get("options").get("tcp_mss_source").asText())
                .isEqualTo("derived: MTU 1280 - 40 IPv6 - 20 TCP - 12 timestamps");
        assertThat(tcp4.get("payload").asInt()).isEqualTo(1208);
        assertThat(tcp6.get("payload").asInt()).isEqualTo(1208);
    }
}
