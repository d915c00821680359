package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statistics against values computed by hand. Most samples are below 2048 ns, where a 3-digit
 * HdrHistogram has unit-wide buckets, so every value is kept exactly; the tests of larger values
 * derive HdrHistogram's buckets by hand.
 */
class LatencyStatsTest {

    static ExactRangeHistogram of(long... roundTrips) {
        ExactRangeHistogram h = LatencyHistograms.create();
        for (long v : roundTrips) {
            LatencyHistograms.record(h, v);
        }
        return h;
    }

    @Test
    void fiveSamplesAsRoundTrips() {
        // {100, 200, 300, 400, 1000}: mean 2000/5 = 400; the median is the 3rd of 5; p99 is the
        // ceil(4.95) = 5th; population variance (300² + 200² + 100² + 0 + 600²)/5 = 100000.
        LatencyStats s = LatencyStats.of(of(100, 200, 300, 400, 1000), 99, LatencyMode.RTT);
        assertThat(s.iterations()).isEqualTo(5);
        assertThat(s.mode()).isEqualTo(LatencyMode.RTT);
        assertThat(s.mean()).hasValue(400);
        assertThat(s.min()).hasValue(100);
        assertThat(s.median()).hasValue(300);
        assertThat(s.max()).hasValue(1000);
        assertThat(s.atPercentile()).hasValue(1000);
        assertThat(s.stdDeviation().getAsDouble()).isCloseTo(Math.sqrt(100_000), within(1e-9));
    }

    @Test
    void fiveSamplesAsHalfRoundTripsAreHalved() {
        LatencyStats s = LatencyStats.of(of(100, 200, 300, 400, 1000), 80, LatencyMode.HALF_RTT);
        assertThat(s.mean()).hasValue(200);
        assertThat(s.min()).hasValue(50);
        assertThat(s.median()).hasValue(150);
        assertThat(s.max()).hasValue(500);
        // p80 of five is the ceil(4.0) = 4th value: 400 / 2
        assertThat(s.atPercentile()).hasValue(200);
        assertThat(s.stdDeviation().getAsDouble()).isCloseTo(Math.sqrt(100_000) / 2, within(1e-9));
    }

    @Test
    void oneSample() {
        LatencyStats s = LatencyStats.of(of(700), 99, LatencyMode.HALF_RTT);
        assertThat(s.iterations()).isEqualTo(1);
        assertThat(s.mean()).hasValue(350);
        assertThat(s.min()).hasValue(350);
        assertThat(s.median()).hasValue(350);
        assertThat(s.max()).hasValue(350);
        assertThat(s.atPercentile()).hasValue(350);
        assertThat(s.stdDeviation()).hasValue(0);
    }

    @Test
    void twoSamples() {
        // {100, 301}: mean 200.5; the median is the 1st of 2 (HdrHistogram takes the lower value
        // at an exact rank); p99 the 2nd; both deviate by 100.5 from the mean.
        LatencyStats s = LatencyStats.of(of(100, 301), 99, LatencyMode.RTT);
        assertThat(s.iterations()).isEqualTo(2);
        assertThat(s.mean()).hasValue(200.5);
        assertThat(s.min()).hasValue(100);
        assertThat(s.median()).hasValue(100);
        assertThat(s.max()).hasValue(301);
        assertThat(s.atPercentile()).hasValue(301);
        assertThat(s.stdDeviation().getAsDouble()).isCloseTo(100.5, within(1e-9));
        LatencyStats half = LatencyStats.of(of(100, 301), 99, LatencyMode.HALF_RTT);
        assertThat(half.mean()).hasValue(100.25);
        assertThat(half.max()).hasValue(150.5);
    }

    @Test
    void anEmptyHistogramHasNoValuesAndNoNaN() {
        LatencyStats s = LatencyStats.of(LatencyHistograms.create(), 99, LatencyMode.HALF_RTT);
        assertThat(s.iterations()).isZero();
        assertThat(s.mean()).isEmpty();
        assertThat(s.min()).isEmpty();
        assertThat(s.median()).isEmpty();
        assertThat(s.max()).isEmpty();
        assertThat(s.atPercentile()).isEmpty();
        assertThat(s.stdDeviation()).isEmpty();
    }

    @Test
    void histogramsAreMergedNotPercentilesAveraged() {
        ExactRangeHistogram a = of(100, 200);
        ExactRangeHistogram b = of(300, 400, 1000);
        LatencyStats merged = LatencyStats.of(LatencyHistograms.merge(List.of(a, b)), 99, LatencyMode.RTT);
        LatencyStats all = LatencyStats.of(of(100, 200, 300, 400, 1000), 99, LatencyMode.RTT);
        assertThat(merged).isEqualTo(all);
        assertThat(merged.median()).hasValue(300);
        // the mean of the two medians (100 and 400) would be 250: not what the merged data says
        double averaged = (LatencyStats.of(a, 99, LatencyMode.RTT).median().getAsDouble()
                + LatencyStats.of(b, 99, LatencyMode.RTT).median().getAsDouble()) / 2;
        assertThat(averaged).isEqualTo(250);
        // merging copies: the parts are unchanged
        assertThat(a.count()).isEqualTo(2);
    }

    @Test
    void valuesOutsideTheFixedRangeAreClampedNotThrown() {
        ExactRangeHistogram h = of(-5, LatencyHistograms.HIGHEST_TRACKABLE_NANOS * 2);
        assertThat(h.count()).isEqualTo(2);
        // min and max are of the values as recorded: -5 as 0, twice the bound as the bound itself
        assertThat(h.min()).hasValue(0);
        assertThat(h.max()).hasValue(LatencyHistograms.HIGHEST_TRACKABLE_NANOS);
        assertThat(h.valueAtPercentile(100)).hasValue(LatencyHistograms.HIGHEST_TRACKABLE_NANOS);
    }

    @Test
    void maxAndPercentilesNeverExceedTheLargestValueRecorded() {
        // {500, 700, 1000001} ns. With 3 significant digits HdrHistogram's sub-bucket count is 2048
        // (the power of two >= 2 x 10^3): values below 2048 each have a slot of width 1, so 500
        // and 700 are held exactly. 1000001 lies in [2^19, 2^20) = [1024 x 2^9, 2048 x 2^9), whose
        // slots are 2^9 = 512 wide: its slot is 1953 x 512 = 999936 .. 999936 + 511 = 1000447, and
        // HdrHistogram reports max and p99 as that slot's top, 1000447, above anything recorded.
        ExactRangeHistogram h = of(500, 700, 1_000_001);
        LatencyStats s = LatencyStats.of(h, 99, LatencyMode.RTT);
        assertThat(s.min()).hasValue(500);
        assertThat(s.max()).hasValue(1_000_001);
        // p99 is rank ceil(0.99 x 3) = 3, the slot of 1000001, whose top 1000447 is clamped to the max
        assertThat(s.atPercentile()).hasValue(1_000_001);
        // p50 is rank ceil(0.5 x 3) = 2, 700, in a slot of width 1 below 2048: exactly 700
        assertThat(s.median()).hasValue(700);
        assertThat(s.significantDigits()).isEqualTo(3);
        assertThat(h.valueAtPercentile(0)).hasValue(500);
        assertThat(h.valueAtPercentile(100)).hasValue(1_000_001);
        assertThat(h.valueAtPercentile(99.999)).hasValue(1_000_001);
        // the mean is HdrHistogram's, over slot middles: (500 + 700 + (999936 + 256)) / 3 = 333797.33
        assertThat(s.mean().getAsDouble()).isCloseTo(1_001_392 / 3.0, within(1e-6));
        LatencyStats half = LatencyStats.of(h, 99, LatencyMode.HALF_RTT);
        assertThat(half.max()).hasValue(500_000.5);
        assertThat(half.atPercentile()).hasValue(500_000.5);
    }

    @Test
    void aSingleLargeSampleIsItsOwnMeanMinMaxAndEveryPercentile() {
        // HdrHistogram's mean of {1000001} is its slot's middle, 999936 + 256 = 1000192, above the
        // only value; clamped to [min, max] it is 1000001.
        LatencyStats s = LatencyStats.of(of(1_000_001), 99.9, LatencyMode.RTT);
        assertThat(s.mean()).hasValue(1_000_001);
        assertThat(s.min()).hasValue(1_000_001);
        assertThat(s.median()).hasValue(1_000_001);
        assertThat(s.atPercentile()).hasValue(1_000_001);
        assertThat(s.max()).hasValue(1_000_001);
    }

    @Test
    void mergingKeepsTheExactExtremesOfEveryPart() {
        // parts {3000001} and {2049, 5}: the merged extremes are 5 and 3000001, while the slot of
        // 3000001 ([2^21, 2^22), 2^11 = 2048 wide: 1464 x 2048 = 2998272 .. 3000319) tops out at 3000319
        ExactRangeHistogram merged = LatencyHistograms.merge(List.of(of(3_000_001), of(2049, 5)));
        assertThat(merged.count()).isEqualTo(3);
        assertThat(merged.min()).hasValue(5);
        assertThat(merged.max()).hasValue(3_000_001);
        assertThat(merged.valueAtPercentile(99)).hasValue(3_000_001);
        assertThat(merged.toHistogram().getMaxValue()).isEqualTo(3_000_319);
        ExactRangeHistogram copy = merged.copy();
        assertThat(copy).isEqualTo(merged);
        copy.record(1);
        assertThat(merged.min()).hasValue(5);
    }

    @Test
    void anEmptyHistogramHasNoPercentiles() {
        ExactRangeHistogram h = LatencyHistograms.create();
        assertThat(h.min()).isEmpty();
        assertThat(h.max()).isEmpty();
        assertThat(h.valueAtPercentile(0)).isEmpty();
        assertThat(h.valueAtPercentile(50)).isEmpty();
        assertThat(h.valueAtPercentile(100)).isEmpty();
        assertThat(h.mean()).isEmpty();
        assertThat(h.stdDeviation()).isEmpty();
        // merging an empty part changes nothing
        ExactRangeHistogram one = of(42);
        one.add(h);
        assertThat(one.min()).hasValue(42);
        assertThat(one.max()).hasValue(42);
    }

    @Test
    void thePrecisionIsStatedWithTheHistogramsDigits() {
        assertThat(LatencyHistograms.precision()).isEqualTo(
                "HdrHistogram, 3 significant digits (values within 0.1 %); min and max exact, percentiles clamped to them");
        assertThat(new ExactRangeHistogram(1, 1000, 2).precision()).startsWith("HdrHistogram, 2 significant digits (values within 1 %)");
        assertThatThrownBy(() -> of(1).valueAtPercentile(100.5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("percentile 100.5 is out of range; allowed: [0, 100]");
    }

    @ParameterizedTest
    @ValueSource(doubles = {0, -1, 100.5, 1000, Double.NaN})
    void aPercentileOutsideZeroToHundredIsRejectedNamingValueAndRange(double p) {
        assertThatThrownBy(() -> LatencyStats.of(of(1), p, LatencyMode.RTT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("percentile " + LatencyStats.formatPercentile(p)
                        + " is out of range; allowed: (0, 100], greater than 0 and at most 100");
    }

    @Test
    void percentileBoundsAndNames() {
        assertThat(LatencyStats.of(of(100, 200, 300), 100, LatencyMode.RTT).atPercentile()).hasValue(300);
        assertThat(LatencyStats.of(of(100, 200, 300), 0.001, LatencyMode.RTT).atPercentile()).hasValue(100);
        assertThat(LatencyStats.formatPercentile(99)).isEqualTo("99");
        assertThat(LatencyStats.formatPercentile(99.9)).isEqualTo("99.9");
        assertThat(LatencyStats.formatPercentile(0)).isEqualTo("0");
        assertThat(LatencyStats.formatPercentile(-1)).isEqualTo("-1");
    }
}
