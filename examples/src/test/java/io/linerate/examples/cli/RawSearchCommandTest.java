package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.afpacket.AfPacket;
import io.linerate.testsupport.VethPair;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code linerate search --tx IF --rx IF}: bad input exits 2 naming the value before any trial runs,
 * and a short search across a veth pair this test creates (root) holds the identities of its
 * counts and says that veth has no line rate.
 */
class RawSearchCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        "search --tx lrtnosuch0|--tx lrtnosuch0 without --rx: a search over raw frames counts loss at both ends; allowed: --tx IF --rx IF",
        "search --rx lrtnosuch1|--rx lrtnosuch1 without --tx",
        "search --frame-sizes 60|--frame-sizes without --tx/--rx",
        "search --tx lrtnosuch0 --rx lrtnosuch1 --frame-sizes 60,59|frame size 59 bytes is out of range; allowed: 60..MTU+14 (L2, without FCS)",
        "search --tx lrtnosuch0 --rx lrtnosuch1 --frame-sizes 124,124|frame size 124 bytes is given twice",
        "search --tx lrtnosuch0 --rx lrtnosuch1|interface lrtnosuch0 does not exist",
        "search --tx lrtnosuch0 --rx lrtnosuch1 --payload 100|--payload 100 sizes a UDP datagram",
        "search --tx lrtnosuch0 --rx lrtnosuch1 --batch 0|batch 0 is out of range; allowed: 1..1024",
        "search --tx lrtnosuch0 --rx lrtnosuch1 --trial 100ms|trial 100 ms is out of range; allowed: 200 ms..1 h",
    })
    void badInputNamesTheValueAndExitsTwo(String args, String message) {
        LinerateCliTest.Run r = LinerateCliTest.linerate(args.split(" "));
        assertThat(r.exit()).as(r.err()).isEqualTo(2);
        assertThat(r.err()).contains(message).doesNotContain("Exception").doesNotContain("\tat ");
        assertThat(r.out()).isEmpty();
    }

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aSearchAcrossAVethPairHoldsItsIdentitiesAndGivesNoLineRate() throws Exception {
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
        VethPair veth = VethPair.create('s');
        try {
            String mtuTooBig = "frame size 1515 bytes does not fit interface " + veth.a + " with MTU 1500; allowed: 60..1514";
            LinerateCliTest.Run big = LinerateCliTest.linerate("search", "--tx", veth.a, "--rx", veth.b, "--frame-sizes", "60,1515");
            assertThat(big.exit()).isEqualTo(2);
            assertThat(big.err()).contains(mtuTooBig);

            // short trials, a low max and a coarse resolution: a handful of trials per size on two shared cores
            String[] common = {"search", "--tx", veth.a, "--rx", veth.b, "--trial", "200ms", "--warmup", "20ms",
                    "--max-rate", "20M", "--resolution", "20%", "--batch", "8"};
            LinerateCliTest.Run j = LinerateCliTest.linerate(concat(common, "--frame-sizes", "60,1514", "--json"));
            // 0 when both sizes found a rate, 1 when even a min rate lost on a busy host: either way the output holds
            assertThat(j.exit()).as(j.err()).isIn(0, 1);
            JsonNode doc = JSON.readTree(j.out());
            assertThat(doc.get("pattern").asText()).isEqualTo("raw-frames");
            assertThat(doc.get("frame_size_note").asText()).isEqualTo("frame sizes are L2 bytes without the 4-byte FCS, "
                    + "which RFC 2544 counts: 60, 1514 B here are RFC 2544's 64, 1518 B");
            JsonNode sizes = doc.get("sizes");
            assertThat(sizes).hasSize(2);
            int[] expected = {60, 1514};
            for (int i = 0; i < 2; i++) {
                JsonNode s = sizes.get(i);
                assertThat(s.get("frame_size").asInt()).isEqualTo(expected[i]);
                assertThat(s.get("rfc2544_frame_size").asInt()).isEqualTo(expected[i] + 4);
                assertThat(s.get("marker").asText()).isEqualTo("raw_" + expected[i]);
                long maxOffered = 0;
                for (JsonNode t : s.get("trials")) {
                    assertThat(t.get("sent").asLong()).isEqualTo(t.get("received").asLong() + t.get("lost").asLong());
                    assertThat(t.get("lost").asLong()).isNotNegative();
                    maxOffered = Math.max(maxOffered, t.get("offered_bps").asLong());
                }
                // the max rate was given, so no unlimited trial ran and every offered rate is within it
                assertThat(maxOffered).isPositive().isLessThanOrEqualTo(20_000_000L);
                if (!s.get("found_bps").isNull()) {
                    long found = s.get("found_bps").asLong();
                    assertThat(found).isLessThanOrEqualTo(maxOffered);
                    // frames/s = L2 bit/s / (size × 8); on the wire each frame takes 24 bytes more
                    assertThat(s.get("found_fps").asDouble()).isEqualTo(found / (expected[i] * 8.0));
                    assertThat(s.get("found_l1_bps").asDouble())
                            .isCloseTo(found / (expected[i] * 8.0) * (expected[i] + 24) * 8, org.assertj.core.api.Assertions.within(1e-3));
                }
                assertThat(s.get("line_rate_pct").isNull()).isTrue();
                assertThat(s.get("link_bps").isNull()).isTrue();
                assertThat(s.get("no_line_rate").asText()).isEqualTo(veth.a + " is veth, which reports a fixed 10000 Mb/s "
                        + "and is no real link: no percentage of line rate");
            }

            LinerateCliTest.Run k = LinerateCliTest.linerate(concat(common, "--frame-sizes", "124", "--ktap"));
            assertThat(k.exit()).as(k.err()).isIn(0, 1);
            assertThat(k.out()).startsWith("KTAP version 1\n1..1\n")
                    .contains("# frame sizes are L2 bytes without the 4-byte FCS, which RFC 2544 counts: 124 B here is RFC 2544's 128 B")
                    .contains("is veth, which reports a fixed 10000 Mb/s and is no real link")
                    .doesNotContain("line_rate_pct");
            if (k.exit() == 0) {
                assertThat(k.out()).contains("\"name\":\"raw_124_ndr_mbps\"").contains("\"name\":\"raw_124_ndr_fps\"")
                        .contains("\nok 1 raw_124_ndr\n");
            }
        } finally {
            veth.close();
        }
        assertThat(Files.exists(Path.of("/sys/class/net", veth.a))).isFalse();
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}
