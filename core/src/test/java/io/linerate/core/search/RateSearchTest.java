package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.TransferException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The search's logic against fake trials with known loss curves. */
class RateSearchTest {
    private static final long M = 1_000_000L;

    /** A trial with no loss at or below {@code r} and 10 % loss above it; the sender always achieves the offered rate. */
    private static Trial stepAt(long r) {
        return offered -> {
            long sent = 100_000;
            long lost = offered <= r ? 0 : 10_000;
            return new TrialOutcome(offered, offered, sent, sent - lost, lost);
        };
    }

    /** RFC 2544's strict search, one trial per load: these tests count its trials; RobustSearchTest has the default. */
    private static SearchSpec.Builder spec(long min, long max) {
        return SearchSpec.builder().minBitsPerSecond(min).maxBitsPerSecond(max).strict();
    }

    @Test
    void absoluteResolutionFindsTheKneeWithinItInTheDerivedNumberOfTrials() throws TransferException {
        long r = 123_456_789;
        SearchResult res = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).build(), stepAt(r));

        // range 990 Mbit/s at 1 Mbit/s: ceil(log2(990)) = 10 bisection trials (2^9 = 512 < 990 <= 1024 = 2^10),
        // and no fewer: after 9 halvings the interval is still 990/512 = 1.93 Mbit/s wide; + 1 confirm = 11
        assertThat(res.trials()).hasSize(11);
        assertThat(res.judgedTrials()).isEqualTo(11);
        assertThat(res.confirmed()).isTrue();
        assertThat(res.converged()).isTrue();
        long found = res.found().getAsLong();
        assertThat(found).isLessThanOrEqualTo(r).isGreaterThan(r - M);
        assertThat(res.upperBitsPerSecond()).isGreaterThan(r);
        SearchTrial last = res.trials().get(10);
        assertThat(last.phase()).isEqualTo(SearchTrial.Phase.CONFIRM);
        assertThat(last.outcome().offeredBitsPerSecond()).isEqualTo(found);
        assertThat(last.verdict()).isEqualTo(SearchTrial.Verdict.PASS);
        // the first bisection trial is the middle of the range: 10 + 990 / 2 = 505 Mbit/s, above the knee
        assertThat(res.trials().get(0).outcome().offeredBitsPerSecond()).isEqualTo(505 * M);
        assertThat(res.trials().get(0).verdict()).isEqualTo(SearchTrial.Verdict.LOSS);
        assertThat(res.notes()).isEmpty();
    }

    @Test
    void percentResolutionFindsTheKneeWithinOnePercentOfTheUpperBound() throws TransferException {
        long r = 300 * M;
        int confirm = 3;
        SearchResult res = RateSearch.run(spec(M, 1000 * M).confirm(confirm).build(), stepAt(r));

        // the upper bound stays above the knee, so the resolution is at least 1% of 300 Mbit/s = 3 Mbit/s:
        // at most ceil(log2(999 / 3)) = ceil(log2(333)) = 9 bisection trials (2^8 = 256 < 333 <= 512), + 3 confirm
        assertThat(res.judgedTrials()).isLessThanOrEqualTo(9 + confirm);
        long found = res.found().getAsLong();
        assertThat(found).isLessThanOrEqualTo(r);
        assertThat(r - found).isLessThanOrEqualTo(res.upperBitsPerSecond() / 100);
        assertThat(res.trials().subList(res.trials().size() - confirm, res.trials().size()))
                .allSatisfy(t -> {
                    assertThat(t.phase()).isEqualTo(SearchTrial.Phase.CONFIRM);
                    assertThat(t.outcome().offeredBitsPerSecond()).isEqualTo(found);
                });
    }

    @Test
    void aFailedConfirmTrialLowersTheUpperBoundToTheFoundRateAndTheSearchGoesOnBelow() throws TransferException {
        long r = 500 * M;
        Set<Long> seen = new HashSet<>();
        boolean[] glitchUsed = {false};
        // no loss at or below 500 Mbit/s, except that the first repeat of any rate (the first confirm trial) loses
        Trial nonMonotonic = offered -> {
            boolean repeat = !seen.add(offered);
            boolean glitch = repeat && !glitchUsed[0];
            if (glitch) {
                glitchUsed[0] = true;
            }
            long lost = offered > r || glitch ? 5 : 0;
            return new TrialOutcome(offered, offered, 1000, 1000 - lost, lost);
        };
        SearchResult res = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).build(), nonMonotonic);

        List<SearchTrial> confirms = res.trials().stream().filter(t -> t.phase() == SearchTrial.Phase.CONFIRM).toList();
        assertThat(confirms).hasSize(2);
        long failedAt = confirms.get(0).outcome().offeredBitsPerSecond();
        assertThat(confirms.get(0).verdict()).isEqualTo(SearchTrial.Verdict.LOSS);
        // the first search converged at the knee: within 1 Mbit/s below 500 Mbit/s
        assertThat(failedAt).isLessThanOrEqualTo(r).isGreaterThan(r - M);
        // documented: the failed rate is the new upper bound, and the search found a rate below it, within the resolution
        assertThat(res.upperBitsPerSecond()).isEqualTo(failedAt);
        long found = res.found().getAsLong();
        assertThat(found).isLessThan(failedAt).isGreaterThanOrEqualTo(failedAt - M);
        assertThat(confirms.get(1).outcome().offeredBitsPerSecond()).isEqualTo(found);
        assertThat(confirms.get(1).verdict()).isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(res.notes()).singleElement().asString().contains("not monotonic")
                .contains(failedAt + " bit/s is now the upper bound");
    }

    @Test
    void aMaxThatNoTrialFailedIsNotCalledTheLowestFailingRate() throws TransferException {
        // the knee is above the max: every bisection trial passes and the max is never offered
        SearchResult res = RateSearch.run(spec(M, 100 * M).build(), stepAt(1000 * M));
        assertThat(res.upperBitsPerSecond()).isEqualTo(100 * M);
        assertThat(res.trials()).noneMatch(t -> t.outcome().offeredBitsPerSecond() == 100 * M);
        assertThat(res.upperFailed()).isFalse();
        assertThat(SearchFormat.foundLine(res)).contains("; no trial failed; the max rate itself is not tried;")
                .doesNotContain("lowest failing");

        SearchResult knee = RateSearch.run(spec(M, 100 * M).build(), stepAt(50 * M));
        assertThat(knee.upperFailed()).isTrue();
        assertThat(knee.trials()).anySatisfy(t -> {
            assertThat(t.outcome().offeredBitsPerSecond()).isEqualTo(knee.upperBitsPerSecond());
            assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.LOSS);
        });
        assertThat(SearchFormat.foundLine(knee)).contains(String.format(java.util.Locale.ROOT, "; lowest failing rate %.3f Mbit/s;",
                knee.upperBitsPerSecond() / 1e6));
    }

    @Test
    void aSearchWhereEvenTheMinRateLosesFindsNothingAndSaysSo() throws TransferException {
        SearchResult res = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).build(), stepAt(5 * M));

        assertThat(res.found()).isEmpty();
        assertThat(res.confirmed()).isFalse();
        // every bisection trial fails, so 10 of them (as above) walk hi down to the min; the confirm trial at the min loses
        assertThat(res.trials()).hasSize(11);
        assertThat(res.trials().subList(0, 10)).allSatisfy(t -> assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.LOSS));
        SearchTrial last = res.trials().get(10);
        assertThat(last.phase()).isEqualTo(SearchTrial.Phase.CONFIRM);
        assertThat(last.outcome().offeredBitsPerSecond()).isEqualTo(10 * M);
        assertThat(res.notes()).singleElement().asString().contains("even the min rate 10000000 bit/s");
        assertThat(SearchFormat.foundLine(res)).isEqualTo(
                "NDR not found: even the min rate 10.000 Mbit/s failed its confirm trial: more than 0% of what was sent was lost");
        assertThat(SearchFormat.failReason(res)).isEqualTo("even the min rate lost");
        assertThat(SearchFormat.metrics(res, "udp4", 1.0)).isEmpty();
    }

    @Test
    void aSenderThatFallsShortOfTheOfferedRateFailsAsLossDoes() throws TransferException {
        // a sender capped at 300 Mbit/s that never loses: with a 1 Mbit/s resolution, trials pass up to 301 Mbit/s offered
        Trial capped = offered -> new TrialOutcome(offered, Math.min(offered, 300 * M), 1000, 1000, 0);
        SearchResult res = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).build(), capped);

        long found = res.found().getAsLong();
        assertThat(found).isLessThanOrEqualTo(301 * M).isGreaterThan(300 * M);
        assertThat(res.trials()).anySatisfy(t -> assertThat(t.verdict()).isEqualTo(SearchTrial.Verdict.SHORTFALL));
    }

    @Test
    void aLossTolerancePassesPartialDropAndNamesThePdrMetric() throws TransferException {
        // 0.5 % loss between 200 and 400 Mbit/s, 10 % above: a 1 % tolerance finds 400 Mbit/s, NDR would find 200
        Trial curve = offered -> {
            long lost = offered <= 200 * M ? 0 : offered <= 400 * M ? 500 : 10_000;
            return new TrialOutcome(offered, offered, 100_000, 100_000 - lost, lost);
        };
        SearchResult pdr = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).lossTolerancePercent(1)
                .build(), curve);
        SearchResult ndr = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).build(), curve);

        assertThat(pdr.found().getAsLong()).isLessThanOrEqualTo(400 * M).isGreaterThan(399 * M);
        assertThat(ndr.found().getAsLong()).isLessThanOrEqualTo(200 * M).isGreaterThan(199 * M);
        assertThat(SearchFormat.metricName(pdr, "udp6")).isEqualTo("udp6_pdr_strict_mbps");
        assertThat(SearchFormat.metrics(ndr, "udp4", 1.0)).singleElement().satisfies(m -> {
            assertThat(m.name()).isEqualTo("udp4_ndr_strict_mbps");
            assertThat(m.unit()).isEqualTo("Mbit/s");
            assertThat(m.better()).isEqualTo(io.linerate.core.Better.HIGHER);
            assertThat(m.value()).isEqualTo(ndr.found().getAsLong() / 1e6);
        });
    }

    @Test
    void withoutAMaxAnUnlimitedTrialSetsItAndTheMinIsOnePercentOfIt() throws TransferException {
        Trial t = offered -> offered == 0
                ? new TrialOutcome(0, 800e6 + 0.7, 1000, 400, 600)
                : stepAt(250 * M).run(offered);
        SearchResult res = RateSearch.run(SearchSpec.builder().build(), t);

        // max = floor(800000000.7) = 800 Mbit/s; min = 1% of it = 8 Mbit/s
        assertThat(res.maxBitsPerSecond()).isEqualTo(800 * M);
        assertThat(res.minBitsPerSecond()).isEqualTo(8 * M);
        assertThat(res.maxFromCalibration()).isTrue();
        assertThat(res.trials().get(0).phase()).isEqualTo(SearchTrial.Phase.CALIBRATION);
        assertThat(res.trials().get(0).verdict()).isEqualTo(SearchTrial.Verdict.MEASURED);
        // first bisection trial: 8 + (800 - 8) / 2 = 404 Mbit/s
        assertThat(res.trials().get(1).outcome().offeredBitsPerSecond()).isEqualTo(404 * M);
        assertThat(res.found().getAsLong()).isLessThanOrEqualTo(250 * M);
        assertThat(res.judgedTrials()).isEqualTo(res.trials().size() - 1);
    }

    @Test
    void maxTrialsStopsTheBisectionAndTheResultSaysSo() throws TransferException {
        SearchResult res = RateSearch.run(spec(10 * M, 1000 * M).resolution(Resolution.absolute(M)).maxTrials(3).build(),
                stepAt(123 * M));

        // three bisection trials leave the interval 990 / 8 = 123.75 Mbit/s wide, then one confirm trial
        assertThat(res.trials()).hasSize(4);
        assertThat(res.converged()).isFalse();
        assertThat(res.notes()).singleElement().asString().startsWith("stopped after 3 search trials");
        // 505 fails, 257.5 fails, 133.75 fails: lo stays at the min, which the confirm trial passes
        assertThat(res.found().getAsLong()).isEqualTo(10 * M);
    }

    @Test
    void judgeAllowsExactlyTheToleranceAndTheShortfall() {
        // 1 lost of 100 is 1 %: within a 1 % tolerance; 2 of 100 is not
        assertThat(SearchTrial.judge(new TrialOutcome(100, 100, 100, 99, 1), 1, 0)).isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(SearchTrial.judge(new TrialOutcome(100, 100, 100, 98, 2), 1, 0)).isEqualTo(SearchTrial.Verdict.LOSS);
        // achieved 90 of 100 offered: passes with a shortfall of 10 allowed, fails with 9
        assertThat(SearchTrial.judge(new TrialOutcome(100, 90, 100, 100, 0), 0, 10)).isEqualTo(SearchTrial.Verdict.PASS);
        assertThat(SearchTrial.judge(new TrialOutcome(100, 90, 100, 100, 0), 0, 9)).isEqualTo(SearchTrial.Verdict.SHORTFALL);
        assertThat(SearchTrial.judge(new TrialOutcome(100, 0, 0, 0, 0), 50, 100)).isEqualTo(SearchTrial.Verdict.NOTHING_SENT);
        assertThatThrownBy(() -> new TrialOutcome(100, 100, 10, 8, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lost must be sent - received");
    }

    @Test
    void builderRefusesBadValuesNamingThemAndTheirRange() {
        assertThatThrownBy(() -> spec(100 * M, 100 * M).build()).hasMessage(
                "min rate 100000000 bit/s is not below max rate 100000000 bit/s; allowed: min < max");
        assertThatThrownBy(() -> spec(200, 100).build()).hasMessageContaining("min rate 200 bit/s is not below max rate 100");
        assertThatThrownBy(() -> Resolution.percent(50)).hasMessage(
                "resolution 50% is out of range; allowed: more than 0% and less than 50% of the upper bound");
        assertThatThrownBy(() -> Resolution.percent(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Resolution.absolute(0)).hasMessageContaining("resolution 0 bit/s is out of range");
        assertThatThrownBy(() -> spec(0, 100 * M).resolution(Resolution.absolute(50 * M)).build()).hasMessage(
                "resolution 50000000 bit/s is 50% of the max rate 100000000 bit/s or more; allowed: more than 0 and less than 50000000 bit/s");
        assertThatThrownBy(() -> SearchSpec.builder().trial(Duration.ofMillis(199)).build()).hasMessage(
                "trial 199 ms is out of range; allowed: 200 ms..1 h");
        assertThatThrownBy(() -> SearchSpec.builder().trial(Duration.ofMillis(400)).interval(Duration.ofMillis(100)).build())
                .hasMessage("interval 100 ms is out of range for a trial of 400 ms, which must hold 5 reporting intervals; "
                        + "allowed: 10 ms..80 ms (the trial / 5), or a trial of 500 ms or more");
        // 1000 ms / 5 = 200 ms; a zero or too short interval has no longer trial to suggest
        assertThatThrownBy(() -> SearchSpec.builder().trial(Duration.ofSeconds(1)).interval(Duration.ZERO).build())
                .hasMessage("interval 0 ms is out of range for a trial of 1000 ms, which must hold 5 reporting intervals; "
                        + "allowed: 10 ms..200 ms (the trial / 5)");
        assertThatThrownBy(() -> SearchSpec.builder().interval(Duration.ofMillis(9)).build())
                .hasMessageStartingWith("interval 9 ms is out of range for a trial of 2000 ms");
        assertThatThrownBy(() -> SearchSpec.builder().confirm(0).build()).hasMessage("confirm 0 is out of range; allowed: 1..100 trials");
        assertThatThrownBy(() -> SearchSpec.builder().maxTrials(0).build()).hasMessage("max trials 0 is out of range; allowed: 1..1000");
        assertThatThrownBy(() -> SearchSpec.builder().lossTolerancePercent(100).build()).hasMessageContaining("loss tolerance 100.0%");
        // the default interval is a tenth of the trial: 2 s -> 200 ms
        assertThat(SearchSpec.builder().build().interval()).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void resolutionParsesPercentagesAndRates() {
        assertThat(Resolution.parse("1%")).isEqualTo(Resolution.percent(1));
        assertThat(Resolution.parse("0.5 %").fraction()).isEqualTo(0.005);
        assertThat(Resolution.parse("1M").absoluteBitsPerSecond()).isEqualTo(1_000_000L);
        assertThat(Resolution.parse("250k").absoluteBitsPerSecond()).isEqualTo(250_000L);
        // 1% of an upper bound of 194 Mbit/s is 1.94 Mbit/s
        assertThat(Resolution.percent(1).bitsPerSecondAt(194 * M)).isEqualTo(1_940_000L);
        assertThatThrownBy(() -> Resolution.parse("50%")).hasMessageContaining("resolution '50%' is out of range");
        assertThatThrownBy(() -> Resolution.parse("0%")).hasMessageContaining("resolution '0%' is out of range");
        assertThatThrownBy(() -> Resolution.parse("0")).hasMessageContaining("resolution '0' is 0 bit/s");
        assertThatThrownBy(() -> Resolution.parse("x%")).hasMessageContaining("resolution 'x%' is not a percentage");
        assertThatThrownBy(() -> Resolution.parse("1Q")).hasMessageContaining("resolution '1Q' is neither a percentage");
    }
}
