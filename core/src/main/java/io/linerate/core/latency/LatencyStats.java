package io.linerate.core.latency;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The sfnt-pingpong summary of one histogram of round-trip times: mean, min, median, max, the value
 * at a chosen percentile, and standard deviation, in ns of the chosen {@link LatencyMode}, with the
 * number of samples and the histogram's precision. Min and max are the exact extremes recorded;
 * percentiles follow HdrHistogram's definition (the highest value equivalent to the one at rank
 * {@code ceil(p/100 · count)}) clamped to them, so none lies above the max or below the min, and
 * p100 is the max (DESIGN rule 8). Mean and standard deviation are HdrHistogram's (each value taken
 * as the middle of its bucket; the deviation is the population one, divided by the count), the
 * mean clamped to [min, max]. An empty histogram has no values: every figure is empty, never NaN.
 * See {@link ExactRangeHistogram}.
 *
 * @param iterations samples (round trips or transactions) in the histogram
 * @param percentile the chosen percentile, in (0, 100]
 * @param mode whether values are half round trips or round trips
 * @param mean arithmetic mean, ns
 * @param min smallest value, exact, ns
 * @param median value at the 50th percentile, ns
 * @param max largest value, exact, ns
 * @param atPercentile value at {@code percentile}, ns
 * @param stdDeviation population standard deviation, ns
 * @param significantDigits decimal digits of precision of the histogram the values came from
 */
public record LatencyStats(long iterations, double percentile, LatencyMode mode, OptionalDouble mean,
                           OptionalDouble min, OptionalDouble median, OptionalDouble max,
                           OptionalDouble atPercentile, OptionalDouble stdDeviation, int significantDigits) {
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
    public static LatencyStats of(ExactRangeHistogram roundTrips, double percentile, LatencyMode mode) {
        checkPercentile(percentile);
        long n = roundTrips.count();
        int digits = roundTrips.significantDigits();
        if (n == 0) {
            OptionalDouble none = OptionalDouble.empty();
            return new LatencyStats(0, percentile, mode, none, none, none, none, none, none, digits);
        }
        double d = mode.divisor();
        return new LatencyStats(n, percentile, mode,
                OptionalDouble.of(roundTrips.mean().getAsDouble() / d),
                OptionalDouble.of(roundTrips.min().getAsLong() / d),
                OptionalDouble.of(roundTrips.valueAtPercentile(50).getAsLong() / d),
                OptionalDouble.of(roundTrips.max().getAsLong() / d),
                OptionalDouble.of(roundTrips.valueAtPercentile(percentile).getAsLong() / d),
                OptionalDouble.of(roundTrips.stdDeviation().getAsDouble() / d),
                digits);
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
