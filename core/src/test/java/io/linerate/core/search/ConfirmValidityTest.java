package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TransferException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A pattern's validity rule beyond loss (a raw receiver's ring drops): ignored during the search,
 * where loss is the signal, and applied to the confirm trials at the found rate.
 */
class ConfirmValidityTest {
    private static final long M = 1_000_000L;
    private static final String DROPS = "stream 0 (ethertype 0x88b5): the RX ring dropped 3 frames (PACKET_STATISTICS)";

    @Test
    void judgeAppliesTheValidityRuleToConfirmTrialsOnly() {
        // 1000 sent, 1000 received, nothing lost, but the ring dropped frames (of the warm-up, say)
        TrialOutcome drops = new TrialOutcome(100, 100, 1000, 1000, 0, List.of(DROPS));
        assertThat(SearchTrial.judge(drops, 0, 0, SearchTrial.Phase.SEARCH)).isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(SearchTrial.judge(drops, 0, 0)).isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(SearchTrial.judge(drops, 0, 0, SearchTrial.Phase.CONFIRM)).isEqualTo(SearchTrial.Verdict.INVALID);
        // loss is judged first: 1 of 1000 lost at a tolerance of 0 is loss, whatever else
        TrialOutcome lossAndDrops = new TrialOutcome(100, 100, 1000, 999, 1, List.of(DROPS));
        assertThat(SearchTrial.judge(lossAndDrops, 0, 0, SearchTrial.Phase.CONFIRM)).isEqualTo(SearchTrial.Verdict.LOSS);
        // the 5-figure outcome has nothing against it
        assertThat(new TrialOutcome(100, 100, 1000, 1000, 0).validityFailures()).isEmpty();
        assertThat(SearchTrial.Verdict.INVALID.label()).isEqualTo("invalid");
    }

    @Test
    void anInvalidConfirmTrialLowersTheUpperBoundAndTheSearchGoesOnBelow() throws TransferException {
        long knee = 500 * M;
        Set<Long> seen = new HashSet<>();
        boolean[] confirmDropped = {false};
        // no loss at or below 500 Mbit/s; every first trial of a rate above 250 Mbit/s reports ring drops (the
        // search must pass it), and so does the first repeat of any rate (the first confirm trial)
        Trial t = offered -> {
            boolean repeat = !seen.add(offered);
            boolean drops = repeat ? !confirmDropped[0] : offered > 250 * M;
            if (repeat && drops) {
                confirmDropped[0] = true;
            }
            long lost = offered > knee ? 5 : 0;
            return new TrialOutcome(offered, offered, 1000, 1000 - lost, lost, drops ? List.of(DROPS) : List.of());
        };
        SearchSpec spec = SearchSpec.builder().minBitsPerSecond(10 * M).maxBitsPerSecond(1000 * M)
                .resolution(Resolution.absolute(M)).strict().build();
        SearchResult res = RateSearch.run(spec, t);

        // search trials at or below the knee passed though they reported drops: loss is the search's signal
        assertThat(res.trials()).filteredOn(x -> x.phase() == SearchTrial.Phase.SEARCH
                        && x.outcome().offeredBitsPerSecond() <= knee && !x.outcome().validityFailures().isEmpty())
                .isNotEmpty().allSatisfy(x -> assertThat(x.verdict()).isEqualTo(SearchTrial.Verdict.PASS));
        List<SearchTrial> confirms = res.trials().stream().filter(x -> x.phase() == SearchTrial.Phase.CONFIRM).toList();
        assertThat(confirms).hasSize(2);
        assertThat(confirms.get(0).verdict()).isEqualTo(SearchTrial.Verdict.INVALID);
        long failedAt = confirms.get(0).outcome().offeredBitsPerSecond();
        // the first round converged within the 1 Mbit/s resolution below the knee
        assertThat(failedAt).isLessThanOrEqualTo(knee).isGreaterThan(knee - M);
        assertThat(res.upperBitsPerSecond()).isEqualTo(failedAt);
        long found = res.found().getAsLong();
        assertThat(found).isLessThan(failedAt).isGreaterThanOrEqualTo(failedAt - M);
        assertThat(confirms.get(1).verdict()).isEqualTo(SearchTrial.Verdict.PASS);
        // the note names the highest rate below the invalid one that passed a search trial of the first round
        assertThat(res.notes()).singleElement().asString()
                .isEqualTo("a confirm trial at " + failedAt + " bit/s was not valid (" + DROPS + "); " + failedAt
                        + " bit/s is now the upper bound and the search goes on below it, from "
                        + res.trials().subList(0, confirms.get(0).number() - 1).stream().filter(SearchTrial::passed)
                                .mapToLong(x -> x.outcome().offeredBitsPerSecond()).filter(r -> r < failedAt).max().orElseThrow()
                        + " bit/s");
        assertThat(SearchFormat.table(res)).anySatisfy(l -> assertThat(l).endsWith("  invalid"));
        assertThat(SearchFormat.json(res, "raw_60").toJson()).contains("\"validity_failures\":[\"" + DROPS + "\"]");
    }

    @Test
    void whenEvenTheMinRatesConfirmIsInvalidTheFoundLineSaysWhy() throws TransferException {
        // every trial loses nothing and reports drops: the search climbs to the max, each confirm is
        // invalid, and the walk down ends at the min, whose confirm is invalid too
        Trial t = offered -> new TrialOutcome(offered, offered, 1000, 1000, 0, List.of(DROPS));
        SearchSpec spec = SearchSpec.builder().minBitsPerSecond(10 * M).maxBitsPerSecond(20 * M).maxTrials(2)
                .resolution(Resolution.absolute(M)).strict().build();
        SearchResult res = RateSearch.run(spec, t);

        assertThat(res.found()).isEmpty();
        assertThat(SearchFormat.foundLine(res)).isEqualTo("NDR not found: even the min rate 10.000 Mbit/s failed its "
                + "confirm trial: it was not valid: " + DROPS);
    }
}
