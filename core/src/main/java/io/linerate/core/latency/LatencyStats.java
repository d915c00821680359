package io.linerate.core.latency;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;

/**
 * The sfnt-pingpong summary of one histogram of round-trip times: mean, min, median, max, the value
 * at a chosen percentile, and standard deviation, in ns of the chosen {@link LatencyMode}, with the
 * number of samples. Percentiles follow HdrHistogram's definition (the highest value equivalent to
 * the one at that rank; p100 is the max). The standard deviation is the population one (divided
 * by the count), as HdrHistogram computes it. An empty histogram has no values: every figure is
 * empty, never NaN (DESIGN rule 8).
 *
 * @param iterations samples (round trips or transactions) in the histogram
 * @param percentile the chosen percentile, in (0, 100]
 * @param mode whether values are half round trips or round trips
 * @param mean arithmetic mean, ns
 * @param min smallest value, ns
 * @param median value at the 50th percentile, ns
 * @param max largest value, ns
 * @param atPercentile value at {@code percentile}, ns
 * @param stdDeviation population standard deviation, ns
 */
public record LatencyStats(long iterations, double percentile, LatencyMode mode, OptionalDouble mean,
                           OptionalDouble min, OptionalDouble median, OptionalDouble max,
                           OptionalDouble atPercentile, OptionalDouble stdDeviation) {
    /** The percentile reported when none is chosen, as sfnt-pingpong does. */
    public static final double DEFAULT_PERCENTILE = 99;

    /**
     * Summarises a histogram of round-trip times.
     *
     * @param roundTrips round-trip times in ns, such as from {@link LatencyHistograms#create()}
     * @param percentile in (0, 100]
     * @param mode {@link LatencyMode#HALF_RTT} divides every value by 2
     * @return the summary; all figures empty when the histogram is
     * @throws IllegalArgumentException if {@code percentile} is outside (0, 100]
     */
    public static LatencyStats of(Histogram roundTrips, double percentile, LatencyMode mode) {
        checkPercentile(percentile);
        long n = roundTrips.getTotalCount();
        if (n == 0) {
            OptionalDouble none = OptionalDouble.empty();
            return new LatencyStats(0, percentile, mode, none, none, none, none, none, none);
        }
        double d = mode.divisor();
        return new LatencyStats(n, percentile, mode,
                OptionalDouble.of(roundTrips.getMean() / d),
                OptionalDouble.of(roundTrips.getMinValue() / d),
                OptionalDouble.of(roundTrips.getValueAtPercentile(50) / d),
                OptionalDouble.of(roundTrips.getMaxValue() / d),
                OptionalDouble.of(roundTrips.getValueAtPercentile(percentile) / d),
                OptionalDouble.of(roundTrips.getStdDeviation() / d));
    }

    /**
     * @param percentile the value to check
     * @return {@code percentile}
     * @throws IllegalArgumentException naming the value and the range (0, 100] when outside it
     */
    public static double checkPercentile(double percentile) {
        if (!(percentile > 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile " + formatPercentile(percentile)
                    + " is out of range; allowed: (0, 100], greater than 0 and at most 100");
        }
        return percentile;
    }

    /** @return the percentile as written in names: {@code 99}, {@code 99.9}, {@code 50} */
    public static String formatPercentile(double percentile) {
        if (!Double.isFinite(percentile)) {
            return Double.toString(percentile);
        }
        return new BigDecimal(Double.toString(percentile)).stripTrailingZeros().toPlainString()
                .toLowerCase(Locale.ROOT);
    }
}
