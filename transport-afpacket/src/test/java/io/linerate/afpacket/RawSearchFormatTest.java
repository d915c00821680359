package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.sink.KtapSink;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The raw sweep's lines, metrics and JSON, from search results built by hand. */
class RawSearchFormatTest {
    private static final LinkSpeed TEN_G = new LinkSpeed("eth0", OptionalLong.of(10_000_000_000L), Optional.empty());
    private static final LinkSpeed VETH = new LinkSpeed("v0", OptionalLong.empty(),
            Optional.of("v0 is veth, which reports a fixed 10000 Mb/s and is no real link: no percentage of line rate"));

    private static SearchResult found(long l2BitsPerSecond) {
        return new SearchResult(SearchSpec.builder().build(), 1, 2 * l2BitsPerSecond, List.of(),
                OptionalLong.of(l2BitsPerSecond), 2 * l2BitsPerSecond, true, List.of());
    }

    @Test
    void aFoundRateOverARealLinkGivesFramesL1AndPercentOfLineRate() {
        // 480,000,000 bit/s at L2 of 60-byte frames = 480e6 / 480 bit = 1,000,000 frames/s;
        // on the wire 1e6 × 84 B × 8 = 672 Mbit/s, which is 6.72 % of 10 Gbit/s (line rate 10e9 / 672 = 14,880,952 frames/s)
        RawSizeResult s = new RawSizeResult(60, found(480_000_000L), TEN_G);
        assertThat(s.foundFramesPerSecond().getAsDouble()).isCloseTo(1_000_000, within(1e-6));
        assertThat(s.foundL1BitsPerSecond().getAsDouble()).isCloseTo(672_000_000, within(1e-3));
        assertThat(s.percentOfLineRate().getAsDouble()).isCloseTo(6.72, within(1e-9));
        assertThat(RawSearchFormat.sizeLine(s)).isEqualTo("60 B frames (RFC 2544's 64 B): NDR 1000000 frames/s, 480.000 "
                + "Mbit/s at L2, 672.000 Mbit/s on the wire (L1, 24 B of preamble, SFD, FCS and gap per frame); 6.720% of "
                + "line rate (eth0 10000 Mb/s: 14880952 frames/s)");

        List<Metric> m = RawSearchFormat.metrics(List.of(s), 3.0);
        assertThat(m).extracting(Metric::name).containsExactly("raw_60_ndr_mbps", "raw_60_ndr_fps", "raw_60_ndr_line_rate_pct");
        assertThat(m).extracting(Metric::value).containsExactly(480.0, 1_000_000.0, 6.72);
        assertThat(m).extracting(Metric::unit).containsExactly("Mbit/s", "frames/s", "%");
        assertThat(m).extracting(Metric::better).containsOnly(Better.HIGHER);
        // each metric carries its own policy line: the percentage is higher-better although '%' defaults to lower-better
        StringWriter out = new StringWriter();
        try (KtapSink k = new KtapSink(new PrintWriter(out))) {
            m.forEach(k::accept);
        }
        assertThat(out.toString().lines().filter(l -> l.startsWith("# ktap-metric-policy-json: ")))
                .hasSize(3).allSatisfy(l -> assertThat(l).contains("\"better\":\"higher\""));
    }

    @Test
    void overVethTheLineSaysSoAndNoPercentageIsGiven() throws Exception {
        // 812,000 frames/s of 1514 bytes: 812,000 × 12,112 bit = 9,834,944,000 bit/s at L2
        RawSizeResult s = new RawSizeResult(1514, found(9_834_944_000L), VETH);
        assertThat(s.percentOfLineRate()).isEmpty();
        assertThat(RawSearchFormat.sizeLine(s)).startsWith("1514 B frames (RFC 2544's 1518 B): NDR 812000 frames/s, "
                + "9834.944 Mbit/s at L2").endsWith("; v0 is veth, which reports a fixed 10000 Mb/s and is no real link: "
                + "no percentage of line rate");
        assertThat(RawSearchFormat.metrics(List.of(s), 1.0)).extracting(Metric::name)
                .containsExactly("raw_1514_ndr_mbps", "raw_1514_ndr_fps");

        JsonNode j = new ObjectMapper().readTree(RawSearchFormat.json(List.of(s), "v0", "v1").toJson());
        assertThat(j.get("frame_size_note").asText())
                .isEqualTo("frame sizes are L2 bytes without the 4-byte FCS, which RFC 2544 counts: 1514 B here is RFC 2544's 1518 B");
        JsonNode row = j.get("sizes").get(0);
        assertThat(row.get("marker").asText()).isEqualTo("raw_1514");
        assertThat(row.get("found_bps").asLong()).isEqualTo(9_834_944_000L);
        assertThat(row.get("found_fps").asDouble()).isCloseTo(812_000, within(1e-6));
        assertThat(row.get("line_rate_pct").isNull()).isTrue();
        assertThat(row.get("link_bps").isNull()).isTrue();
        assertThat(row.get("no_line_rate").asText()).startsWith("v0 is veth");
    }

    @Test
    void theNoteMapsEveryDefaultSizeToRfc2544s() {
        assertThat(RawSearchFormat.frameSizeNote(List.of(60, 124, 252, 508, 1020, 1276, 1514))).isEqualTo(
                "frame sizes are L2 bytes without the 4-byte FCS, which RFC 2544 counts: 60, 124, 252, 508, 1020, 1276, "
                        + "1514 B here are RFC 2544's 64, 128, 256, 512, 1024, 1280, 1518 B");
    }

    @Test
    void aSizeWhereNothingWasFoundHasNoMetrics() {
        SearchResult none = new SearchResult(SearchSpec.builder().build(), 1, 100, List.of(
                new io.linerate.core.search.SearchTrial(1, io.linerate.core.search.SearchTrial.Phase.CONFIRM,
                        new io.linerate.core.search.TrialOutcome(1, 1, 10, 9, 1), 1, io.linerate.core.search.SearchTrial.Verdict.LOSS)),
                OptionalLong.empty(), 1, true, List.of());
        RawSizeResult s = new RawSizeResult(60, none, TEN_G);
        assertThat(RawSearchFormat.metrics(List.of(s), 1.0)).isEmpty();
        assertThat(s.percentOfLineRate()).isEmpty();
        assertThat(RawSearchFormat.sizeLine(s)).startsWith("60 B frames (RFC 2544's 64 B): NDR not found: even the min rate");
    }
}
