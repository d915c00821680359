package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.TransferException;
import io.linerate.core.search.RateSearch;
import io.linerate.core.search.Resolution;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.TrialOutcome;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code search --plot}, {@code search --loss-sweep} and {@code plot --search}. The runs over loopback
 * assert identities that hold under any load (sent = received + lost, the step rates the sweep's
 * rule gives, a chart point per trial), never a rate or zero loss.
 */
class SearchPlotCommandTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long M = 1_000_000L;

    @TempDir
    Path dir;

    private static int count(String svg, String needle) {
        int n = 0;
        for (int i = svg.indexOf(needle); i >= 0; i = svg.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void aLossSweepOnLoopbackStepsDownByTenPercentOfTheMaxAndDrawsEveryStep() throws Exception {
        Path svg = dir.resolve("sweep.svg");
        LinerateCliTest.Run r = LinerateCliTest.linerate("search", "--loss-sweep", "--max-rate", "20M", "--trial", "200ms",
                "--interval", "40ms", "--warmup", "50ms", "--rcvbuf", "4M", "--json", "--plot", svg.toString());
        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode j = JSON.readTree(r.out());
        assertThat(j.get("search").asText()).isEqualTo("loss-sweep");
        assertThat(j.get("max_bps").asLong()).isEqualTo(20 * M);
        List<Long> offered = new ArrayList<>();
        boolean previousFree = false;
        int steps = 0;
        for (JsonNode row : j.get("trials")) {
            steps++;
            assertThat(row.get("sent").asLong()).isEqualTo(row.get("received").asLong() + row.get("lost").asLong());
            offered.add(row.get("offered_bps").asLong());
            boolean free = row.get("loss_free").asBoolean();
            // the sweep stops after the second of two successive loss-free steps, so no step follows one
            assertThat(previousFree && free && steps < j.get("trials").size()).isFalse();
            previousFree = free;
        }
        // 20 Mbit/s x 100 %, 90 %, 80 %, ...: 20, 18, 16, ... Mbit/s, at most ten steps down to 2 Mbit/s
        List<Long> rule = List.of(20 * M, 18 * M, 16 * M, 14 * M, 12 * M, 10 * M, 8 * M, 6 * M, 4 * M, 2 * M);
        assertThat(offered).isEqualTo(rule.subList(0, offered.size()));
        assertThat(offered.size() == 10 || j.get("ended_loss_free").asBoolean()).isTrue();
        String chart = Files.readString(svg);
        assertThat(count(chart, "<g class=\"trial ")).isEqualTo(offered.size());
        assertThat(chart).contains("class=\"sweep\"").doesNotContain("class=\"found\"");
    }

    @Test
    void aSearchWritesItsChartWithAPointPerTrial() throws Exception {
        Path svg = dir.resolve("search.svg");
        LinerateCliTest.Run r = LinerateCliTest.linerate("search", "--max-rate", "20M", "--resolution", "4M", "--trial",
                "200ms", "--interval", "40ms", "--warmup", "50ms", "--rcvbuf", "4M", "--json", "--plot", svg.toString());
        // 0 found, 1 even the min rate lost on a very busy host: the chart is written either way
        assertThat(r.exit()).as(r.err()).isIn(0, 1);
        JsonNode j = JSON.readTree(r.out());
        int trials = j.get("trials").size();
        String chart = Files.readString(svg);
        assertThat(count(chart, "<g class=\"trial ")).isEqualTo(trials);
        if (r.exit() == 0) {
            assertThat(j.get("found_bps").asLong()).isLessThanOrEqualTo(20 * M);
            assertThat(chart).contains("class=\"found\"");
        }
    }

    @Test
    void plotDrawsTheSameChartFromASavedSearchResult() throws Exception {
        // a fake knee at 300 Mbit/s: the search's chart from the result and plot --search's from its JSON are the same
        SearchResult res = RateSearch.run(SearchSpec.builder().minBitsPerSecond(10 * M).maxBitsPerSecond(1000 * M)
                .resolution(Resolution.absolute(M)).strict().build(), o -> {
                    long lost = o > 300 * M ? 10 : 0;
                    return new TrialOutcome(o, o, 1000, 1000 - lost, lost);
                });
        Files.writeString(dir.resolve("r.json"), SearchFormat.json(res, "udp4").toJson());
        LossSweepRun.plot(res, "udp4", dir.resolve("direct.svg"));
        LinerateCliTest.Run r = LinerateCliTest.linerate("plot", "--search", dir.resolve("r.json").toString(), "--title",
                "udp4 NDR search (RFC 2544 section 26.1)", "-o", dir.resolve("plotted.svg").toString());
        assertThat(r.exit()).as(r.err()).isZero();
        // strict: 10 bisection trials (ceil(log2(990)) = 10) and 1 confirm
        assertThat(r.out()).contains("(11 trials)");
        assertThat(Files.readString(dir.resolve("plotted.svg"))).isEqualTo(Files.readString(dir.resolve("direct.svg")));
    }

    @Test
    void plotNeedsExactlyOneOfInputAndSearchAndNamesABadFile() throws Exception {
        LinerateCliTest.Run none = LinerateCliTest.linerate("plot", "-o", dir.resolve("x.svg").toString());
        assertThat(none.exit()).isEqualTo(2);
        assertThat(none.err()).contains("give exactly one of --input FILE... (metrics) and --search FILE.json");
        Files.writeString(dir.resolve("bad.json"), "{\"search\":\"ndr\",\"marker\":\"udp4\"}");
        LinerateCliTest.Run bad = LinerateCliTest.linerate("plot", "--search", dir.resolve("bad.json").toString(), "-o",
                dir.resolve("x.svg").toString());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("bad.json: field 'trials' is missing or not an array");
    }

    @Test
    void aPlotIntoAMissingDirectoryIsBadUsageBeforeAnyTrial() throws TransferException {
        LinerateCliTest.Run r = LinerateCliTest.linerate("search", "--plot", dir.resolve("no/such/dir/x.svg").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).contains("--plot").contains("does not exist");
        assertThat(r.out()).isEmpty();
    }
}
