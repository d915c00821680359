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
                "--warmup", "50ms", "--markers", "udp4_frag,udp6_frag,udp4,tcp6");

        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        // the command ran in this JVM, so its namespace is named after this process
        String name = LoopbackCommand.NETNS_PREFIX + ProcessHandle.current().pid();
        assertThat(r.err()).contains("# running in network namespace " + name + " ");
        assertThat(NetworkNamespace.list()).doesNotContain(name);
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> results = new ArrayList<>();
        for (String line : r.lines()) {
            results.add(json.readTree(line));
        }
        assertThat(results).extracting(n -> n.get("marker").asText()).containsExactly("udp4_frag", "udp6_frag", "udp4", "tcp6");
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
    }
}
