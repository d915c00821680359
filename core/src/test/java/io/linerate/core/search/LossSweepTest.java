package io.linerate.core.search;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Better;
import io.linerate.core.TransferException;
import java.util.List;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/** RFC 2544's frame loss rate test (section 26.3) against fake trials with known loss curves. */
class LossSweepTest {
    private static final long M = 1_000_000L;

    /** 1000 datagrams per trial, 50 of them lost where {@code lossy} says so; the sender achieves the offered rate. */
    private static Trial curve(LongPredicate lossy) {
        return offered -> {
            long lost = lossy.test(offered) ? 50 : 0;
            return new TrialOutcome(offered, offered, 1000, 1000 - lost, lost);
        };
    }

    private static List<Long> offered(LossSweepResult r) {
        return r.steps().stream().map(s -> s.outcome().offeredBitsPerSecond()).toList();
    }

    @Test
    void stepsDownByTenPercentOfTheMaxUntilTwoSuccessiveStepsLoseNothing() throws TransferException {
        // loss above 650 Mbit/s: 1000, 900, 800, 700 lose; 600 and 500 do not, which ends the sweep after 6 steps
        LossSweepResult r = LossSweep.run(1000 * M, curve(o -> o > 650 * M));

        assertThat(offered(r)).containsExactly(1000 * M, 900 * M, 800 * M, 700 * M, 600 * M, 500 * M);
        assertThat(r.steps()).extracting(SweepStep::offeredPercent).containsExactly(100, 90, 80, 70, 60, 50);
        // 50 of 1000 lost is 5 %
        assertThat(r.steps().get(0).outcome().lossPercent()).isEqualTo(5.0);
        assertThat(r.steps()).extracting(SweepStep::lossFree).containsExactly(false, false, false, false, true, true);
        assertThat(r.endedLossFree()).isTrue();
        assertThat(r.notes()).isEmpty();
        assertThat(r.calibration()).isEmpty();
        assertThat(LossSweepFormat.endLine(r)).isEqualTo("frame loss rate test (RFC 2544 section 26.3): 6 steps of 10% "
                + "from 1000.000 Mbit/s; ended after 2 successive loss-free steps, the last at 50%");
    }

    @Test
    void aLossFreeStepFollowedByALossyOneDoesNotCountTowardsTheEnd() throws TransferException {
        // not monotonic: 100 % and 80 % lose, 90 % does not; 70 % and 60 % are the two successive loss-free steps
        LossSweepResult r = LossSweep.run(1000 * M, curve(o -> o == 1000 * M || o == 800 * M));

        assertThat(offered(r)).containsExactly(1000 * M, 900 * M, 800 * M, 700 * M, 600 * M);
        assertThat(r.endedLossFree()).isTrue();
    }

    @Test
    void lossDownToTheLowestStepRunsTenStepsAndSaysSo() throws TransferException {
        LossSweepResult r = LossSweep.run(1000 * M, curve(o -> true));

        // 100, 90, ..., 10 %: ten steps, the last at 100 Mbit/s
        assertThat(r.steps()).hasSize(10);
        assertThat(r.steps().get(9).outcome().offeredBitsPerSecond()).isEqualTo(100 * M);
        assertThat(r.endedLossFree()).isFalse();
        assertThat(r.notes()).singleElement().asString()
                .isEqualTo("the 10% step (100000000 bit/s) was reached without 2 successive loss-free steps: "
                        + "there is loss down to the lowest step");
    }

    @Test
    void withoutAMaxAnUnlimitedTrialSetsItAndStepRatesRoundDown() throws TransferException {
        Trial t = offered -> offered == 0 ? new TrialOutcome(0, 123_456_789.9, 1000, 300, 700)
                : curve(o -> o > 100 * M).run(offered);
        LossSweepResult r = LossSweep.run(0, t);

        // max = floor(123456789.9) = 123456789; 90 % = floor(111111110.1) = 111111110; 80 % = floor(98765431.2) = 98765431
        assertThat(r.maxBitsPerSecond()).isEqualTo(123_456_789L);
        assertThat(r.calibration()).isPresent();
        assertThat(offered(r)).containsExactly(123_456_789L, 111_111_110L, 98_765_431L, 86_419_752L);
        assertThat(LossSweep.rateAt(123_456_789L, 10)).isEqualTo(12_345_678L);
        // no overflow near the top of the range: (2^63 - 1) = 100 * 92233720368547758 + 7, so 90 % is
        // 90 * 92233720368547758 + floor(7 * 90 / 100) = 8301034833169298220 + 6
        assertThat(LossSweep.rateAt(Long.MAX_VALUE, 90)).isEqualTo(8_301_034_833_169_298_226L);
    }

    @Test
    void aMaxTooSmallForTheLowestStepIsRefused() {
        assertThatThrownBy(() -> LossSweep.run(9, curve(o -> false))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("max rate 9 bit/s is out of range for a loss sweep; allowed: 0 (what an unlimited trial "
                        + "achieves) or 10 bit/s or more");
    }

    @Test
    void eachStepIsALowerBetterLossMetricLabelledWithItsPercentageAndTheJsonReadsBackAsTheSameCurve()
            throws TransferException {
        LossSweepResult r = LossSweep.run(1000 * M, curve(o -> o > 850 * M));
        // 1000 and 900 lose 5 %, 800 and 700 lose nothing: four steps
        assertThat(LossSweepFormat.metrics(r, "udp4", 2.0)).hasSize(4).first().satisfies(m -> {
            assertThat(m.name()).isEqualTo("udp4_sweep_loss_pct");
            assertThat(m.unit()).isEqualTo("%");
            assertThat(m.value()).isEqualTo(5.0);
            assertThat(m.labels()).containsEntry("offered_pct", "100");
            assertThat(m.better()).isEqualTo(Better.LOWER);
        });
        LossCurve c = LossCurve.fromJson(LossSweepFormat.json(r, "udp4", SearchSpec.builder().build()).toJson());
        assertThat(c).isEqualTo(LossCurve.of(r, "udp4"));
        assertThat(c.sweep()).isTrue();
        assertThat(c.points()).extracting(LossCurve.Point::lossPercent).containsExactly(5.0, 5.0, 0.0, 0.0);
        assertThat(LossSweepFormat.table(r)).hasSize(5).element(1).asString()
                .startsWith("    1 step                100       1000.000       1000.000         1000          950         50    5.0000");
    }

    @Test
    void aSearchResultReadsBackFromItsJsonAsTheSameCurve() throws TransferException {
        SearchResult s = RateSearch.run(SearchSpec.builder().minBitsPerSecond(10 * M).maxBitsPerSecond(1000 * M)
                .resolution(Resolution.absolute(M)).build(), curve(o -> o > 300 * M));
        LossCurve c = LossCurve.fromJson(SearchFormat.json(s, "udp6").toJson());

        assertThat(c).isEqualTo(LossCurve.of(s, "udp6"));
        assertThat(c.kind()).isEqualTo("ndr");
        assertThat(c.found()).isEqualTo(s.found());
        assertThatThrownBy(() -> LossCurve.fromJson("{\"search\":\"ndr\",\"marker\":\"udp4\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("field 'trials' is missing or not an array; expected the output of search --json");
    }
}
