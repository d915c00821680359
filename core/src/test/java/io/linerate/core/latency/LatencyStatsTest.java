package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Statistics against values computed by hand. All samples are below 2048 ns, where a 3-digit
 * HdrHistogram has unit-wide buckets, so every value is kept exactly.
 */
class LatencyStatsTest {

    static Histogram of(long... roundTrips) {
        Histogram h = LatencyHistograms.create();
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
        Histogram a = of(100, 200);
        Histogram b = of(300, 400, 1000);
        LatencyStats merged = LatencyStats.of(LatencyHistograms.merge(List.of(a, b)), 99, LatencyMode.RTT);
        LatencyStats all = LatencyStats.of(of(100, 200, 300, 400, 1000), 99, LatencyMode.RTT);
        assertThat(merged).isEqualTo(all);
        assertThat(merged.median()).hasValue(300);
        // the mean of the two medians (100 and 400) would be 250: not what the merged data says
        double averaged = (LatencyStats.of(a, 99, LatencyMode.RTT).median().getAsDouble()
                + LatencyStats.of(b, 99, LatencyMode.RTT).median().getAsDouble()) / 2;
        assertThat(averaged).isEqualTo(250);
        // merging copies: the parts are unchanged
        assertThat(a.getTotalCount()).isEqualTo(2);
    }

    @Test
    void valuesOutsideTheFixedRangeAreClampedNotThrown() {
        Histogram h = of(-5, LatencyHistograms.HIGHEST_TRACKABLE_NANOS * 2);
        assertThat(h.getTotalCount()).isEqualTo(2);
        assertThat(h.getMinValue()).isZero();
        assertThat(h.getMaxValue()).isGreaterThanOrEqualTo(LatencyHistograms.HIGHEST_TRACKABLE_NANOS)
                .isLessThan(LatencyHistograms.HIGHEST_TRACKABLE_NANOS + LatencyHistograms.HIGHEST_TRACKABLE_NANOS / 500);
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
