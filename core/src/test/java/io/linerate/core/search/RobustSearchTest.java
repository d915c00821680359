package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.TransferException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The robust search (the default: a load fails when more than half of its up to 3 trials fail) and
 * the carried rate, against fake trials with sporadic losses and a shaped link.
 */
class RobustSearchTest {
    private static final long M = 1_000_000L;
    private static final long SENT = 100_000;

    /** No loss up to 500 Mbit/s, 10 % above; the first trial at 257.5 Mbit/s (and only it) loses 3 datagrams. */
    private static Trial onceLossyAt2575() {
        int[] runsAt2575 = {0};
        return offered -> {
            long lost = offered > 500 * M ? SENT / 10 : 0;
            if (offered == 257_500_000L && runsAt2575[0]++ == 0) {
                lost = 3;
            }
            return new TrialOutcome(offered, offered, SENT, SENT - lost, lost);
        };
    }

    private static SearchSpec.Builder range() {
        return SearchSpec.builder().minBitsPerSecond(10 * M).maxBitsPerSecond(1000 * M);
    }

    @Test
    void oneSporadicLossIsOutvotedAndTheSearchFindsTheKneeWithinItsResolution() throws TransferException {
        SearchResult res = RateSearch.run(range().build(), onceLossyAt2575());

        assertThat(res.spec().strict()).isFalse();
        assertThat(res.spec().trialsPerLoad()).isEqualTo(3);
        // 10..1000 Mbit/s: the first load is 10 + 990 / 2 = 505 Mbit/s, above the knee; the second 10 + 495 / 2
        long found = res.found().getAsLong();
        assertThat(found).isLessThanOrEqualTo(500 * M);
        assertThat(res.upperBitsPerSecond()).isGreaterThan(500 * M);
        assertThat(res.upperBitsPerSecond() - found).isLessThanOrEqualTo(res.upperBitsPerSecond() / 100);
        // the load at 257.5 Mbit/s took three trials: the lossy one, then two that passed
        LoadJudgement at2575 = res.loads().get(1);
        assertThat(at2575.offeredBitsPerSecond()).isEqualTo(257_500_000L);
        assertThat(at2575.trials()).isEqualTo(3);
        assertThat(at2575.failed()).isEqualTo(1);
        assertThat(at2575.passed()).isTrue();
        assertThat(res.trials().get(at2575.firstTrial() - 1).verdict()).isEqualTo(SearchTrial.Verdict.LOSS);
        assertThat(res.notes()).singleElement().asString()
                .isEqualTo("a failed trial was outvoted at 257500000 bit/s: each load passed, since it fails only when 2 "
                        + "of its up to 3 trials fail");
        // every other load agreed with itself in 2 trials; together they are all the judged trials
        assertThat(res.loads()).filteredOn(l -> l != at2575).allSatisfy(l -> assertThat(l.trials()).isEqualTo(2));
        assertThat(res.loads().stream().mapToInt(LoadJudgement::trials).sum()).isEqualTo((int) res.judgedTrials());
    }

    @Test
    void theStrictSearchKeepsRfc2544sOneTrialJudgementAndIsDraggedBelowTheLossyRate() throws TransferException {
        SearchResult res = RateSearch.run(range().strict().build(), onceLossyAt2575());

        // 505 fails, 257.5 fails once and so for good: the search converges below it within 1 % of it
        assertThat(res.upperBitsPerSecond()).isEqualTo(257_500_000L);
        long found = res.found().getAsLong();
        assertThat(found).isLessThan(257_500_000L).isGreaterThanOrEqualTo(257_500_000L - 2_575_000L);
        assertThat(res.loads()).allSatisfy(l -> assertThat(l.trials()).isEqualTo(1));
        assertThat(res.notes()).isEmpty();
        assertThat(SearchFormat.foundLine(res)).contains("strict (RFC 2544): 1 trial per load, " + res.judgedTrials()
                + " trials");
    }

    @Test
    void aLoadThatFailsTwoOfItsThreeTrialsFailsAndMovesTheBound() throws TransferException {
        // no loss anywhere, except that the first two trials at 257.5 Mbit/s each lose one datagram
        Map<Long, Integer> runs = new HashMap<>();
        Trial t = offered -> {
            int n = runs.merge(offered, 1, Integer::sum);
            long lost = offered > 500 * M || offered == 257_500_000L && n <= 2 ? 1 : 0;
            return new TrialOutcome(offered, offered, SENT, SENT - lost, lost);
        };
        SearchResult res = RateSearch.run(range().build(), t);

        assertThat(res.loads().get(1)).satisfies(l -> {
            assertThat(l.offeredBitsPerSecond()).isEqualTo(257_500_000L);
            assertThat(l.trials()).isEqualTo(2);
            assertThat(l.failed()).isEqualTo(2);
            assertThat(l.passed()).isFalse();
        });
        assertThat(res.upperBitsPerSecond()).isEqualTo(257_500_000L);
        assertThat(runs.get(257_500_000L)).isEqualTo(2);
    }

    @Test
    void aLoadIsDecidedByMoreThanHalfOfItsTrials() {
        // N = 1: one trial decides either way (RFC 2544)
        SearchSpec one = SearchSpec.builder().strict().build();
        assertThat(LoadJudgement.decided(one, 0, 0)).isFalse();
        assertThat(LoadJudgement.decided(one, 1, 0)).isTrue();
        assertThat(LoadJudgement.decided(one, 0, 1)).isTrue();
        // N = 2: it fails only when both fail (2 > 2 / 2); one pass leaves at most 1 of 2 failed, not more than half
        SearchSpec two = SearchSpec.builder().trialsPerLoad(2).build();
        assertThat(LoadJudgement.decided(two, 0, 1)).isFalse();
        assertThat(LoadJudgement.decided(two, 1, 0)).isTrue();
        assertThat(two.failuresToFail()).isEqualTo(2);
        // N = 3: 2 failures fail it, 2 passes pass it
        SearchSpec three = SearchSpec.builder().build();
        assertThat(LoadJudgement.decided(three, 1, 0)).isFalse();
        assertThat(LoadJudgement.decided(three, 1, 1)).isFalse();
        assertThat(LoadJudgement.decided(three, 2, 1)).isTrue();
        assertThat(LoadJudgement.decided(three, 1, 2)).isTrue();
        // N = 4: 3 failures (more than 2) fail it; 2 passes leave at most 2 of 4 failed
        SearchSpec four = SearchSpec.builder().trialsPerLoad(4).build();
        assertThat(four.failuresToFail()).isEqualTo(3);
        assertThat(four.passesToPass()).isEqualTo(2);
        assertThat(LoadJudgement.decided(four, 1, 2)).isFalse();
        assertThat(LoadJudgement.decided(four, 2, 2)).isTrue();
        assertThatThrownBy(() -> SearchSpec.builder().trialsPerLoad(0).build())
                .hasMessage("trials per load 0 is out of range; allowed: 1 (strict, RFC 2544)..99");
        assertThatThrownBy(() -> SearchSpec.builder().trialsPerLoad(100).build())
                .hasMessage("trials per load 100 is out of range; allowed: 1 (strict, RFC 2544)..99");
    }

    /**
     * A link that carries {@code carried} bit/s and loses nothing: a sender offered more is throttled
     * to it (its socket blocks), as on a loopback shaped with tbf.
     */
    private static Trial shaped(long carried) {
        return offered -> new TrialOutcome(offered, Math.min(offered, carried), SENT, SENT, 0);
    }

    @Test
    void onAShapedLinkTheResultIsTheRateThatWasCarriedAndSaysSo() throws Exception {
        long carried = 194_200_000L;
        SearchResult res = RateSearch.run(range().build(), shaped(carried));

        // a trial passes while it falls short by at most 1 % of the upper bound (plus one message, none here), so
        // the found offered rate may lie above what the link carried; the result is what was carried
        long found = res.found().getAsLong();
        assertThat(found).isGreaterThanOrEqualTo(carried - res.upperBitsPerSecond() / 100);
        double result = res.carriedBitsPerSecond().orElseThrow();
        assertThat(result).isLessThanOrEqualTo(carried).isEqualTo(Math.min(found, carried));
        assertThat(SearchFormat.metrics(res, "udp4", 1.0)).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("udp4_ndr_mbps");
            assertThat(m.value()).isEqualTo(result / 1e6);
        });
        assertThat(SearchFormat.foundLine(res)).startsWith(String.format(java.util.Locale.ROOT,
                "NDR %.3f Mbit/s carried at an offered %.3f Mbit/s (loss tolerance 0%%, robust (MLRsearch): a load fails "
                        + "when 2 of up to 3 trials fail, %d loads in %d trials;", result / 1e6, found / 1e6,
                res.loads().size(), res.judgedTrials()));

        JsonNode j = new ObjectMapper().readTree(SearchFormat.json(res, "udp4").toJson());
        assertThat(j.get("mode").asText()).isEqualTo("robust");
        assertThat(j.get("trials_per_load").asInt()).isEqualTo(3);
        assertThat(j.get("found_bps").asLong()).isEqualTo(found);
        assertThat(j.get("carried_bps").asDouble()).isEqualTo(result);
        JsonNode loads = j.get("loads");
        assertThat(loads).hasSize(res.loads().size());
        int trials = 0;
        for (JsonNode l : loads) {
            trials += l.get("trials").asInt();
            assertThat(l.get("verdict").asText()).isIn("pass", "fail");
        }
        assertThat(trials).isEqualTo(j.get("trials").size());
        // each trial names its load: trial 1 and 2 are the first load's
        assertThat(List.of(j.get("trials").get(0).get("load").asInt(), j.get("trials").get(1).get("load").asInt()))
                .containsExactly(1, 1);
    }
}
