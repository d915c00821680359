package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a {@link RateSearch.Observer} hears: each trial before it runs, with the bracket so far. */
class RateSearchObserverTest {
    private static final long M = 1_000_000L;

    record Heard(int number, SearchTrial.Phase phase, long offered, long lower, long upper) {}

    @Test
    void theObserverHearsEachTrialWithTheBracketItNarrows() throws TransferException {
        // no loss at or below 300 Mbit/s, all lost above; the sender achieves 1000 Mbit/s unlimited
        Trial knee = offered -> {
            long achieved = offered == 0 ? 1000 * M : offered;
            long sent = 100_000;
            long lost = offered != 0 && offered > 300 * M ? sent : 0;
            return new TrialOutcome(offered, achieved, sent, sent - lost, lost);
        };
        List<Heard> heard = new ArrayList<>();
        SearchSpec spec = SearchSpec.builder().minBitsPerSecond(100 * M).strict()
                .resolution(Resolution.absolute(100 * M)).confirm(1).build();

        SearchResult r = RateSearch.run(spec, knee, (n, phase, offered, lower, upper) ->
                heard.add(new Heard(n, phase, offered, lower, upper)));

        // calibration at unlimited rate, range unknown; then the max is 1000 Mbit/s and the min 100:
        // mid = lo + (hi - lo) / 2: 550 fails (hi 550), 325 fails (hi 325), 212.5 passes (lo 212.5),
        // 325 - 212.5 = 112.5 > 100: 268.75 passes (lo 268.75), 325 - 268.75 = 56.25 <= 100: converged;
        // the confirm trial at 268.75 passes
        assertThat(heard).containsExactly(
                new Heard(1, SearchTrial.Phase.CALIBRATION, 0, 0, 0),
                new Heard(2, SearchTrial.Phase.SEARCH, 550 * M, 100 * M, 1000 * M),
                new Heard(3, SearchTrial.Phase.SEARCH, 325 * M, 100 * M, 550 * M),
                new Heard(4, SearchTrial.Phase.SEARCH, 212_500_000, 100 * M, 325 * M),
                new Heard(5, SearchTrial.Phase.SEARCH, 268_750_000, 212_500_000, 325 * M),
                new Heard(6, SearchTrial.Phase.CONFIRM, 268_750_000, 268_750_000, 325 * M));
        assertThat(r.trials()).hasSize(heard.size());
        assertThat(r.found()).hasValue(268_750_000);
    }
}
