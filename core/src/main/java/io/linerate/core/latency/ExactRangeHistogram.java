package io.linerate.core.latency;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.HdrHistogram.Histogram;

/**
 * An HdrHistogram with the exact smallest and largest recorded values kept beside it (DESIGN rule
 * 8). HdrHistogram reports a value as the highest value of its bucket, so over {500, 700, 1000001}
 * ns at 3 significant digits its max and p99 are 1000447 ns, above anything recorded. Here:
 *
 * <ul>
 *   <li>{@link #min()} and {@link #max()} are the exact extremes of the values recorded;</li>
 *   <li>{@link #valueAtPercentile(double)} is HdrHistogram's value at that percentile (the
 *       highest value equivalent to the value at rank {@code ceil(p/100 · count)}), clamped to
 *       [{@code min}, {@code max}]; p0 is exactly {@code min} and p100 exactly {@code max};</li>
 *   <li>{@link #mean()} and {@link #stdDeviation()} are HdrHistogram's (each value taken as the
 *       middle of its bucket, so within the histogram's precision), the mean clamped to
 *       [{@code min}, {@code max}];</li>
 *   <li>an empty histogram has no min, max, percentile, mean or deviation: all are empty.</li>
 * </ul>
 *
 * Values within [0, {@code highestTrackableValue}] are kept to {@link #significantDigits()}
 * significant decimal digits (relative error at most 10^-digits); a value outside that range is
 * recorded as the nearest bound, and min and max are of the values as recorded.
 * {@link #record(long)} never allocates (the histogram does not resize; the extremes are two
 * longs). Not thread-safe: one thread records, others read only after it has ended.
 */
public final class ExactRangeHistogram {
    private final Histogram histogram;
    private final long highestTrackable;
    private long min = Long.MAX_VALUE;
    private long max = Long.MIN_VALUE;

    /**
     * @param lowestDiscernibleValue smallest value told apart from 0, at least 1
     * @param highestTrackableValue largest value kept in range, at least twice the lowest
     * @param significantDigits decimal digits of precision, 0..5
     * @throws IllegalArgumentException (from HdrHistogram) for values outside those ranges
     */
    public ExactRangeHistogram(long lowestDiscernibleValue, long highestTrackableValue, int significantDigits) {
        this(new Histogram(lowestDiscernibleValue, highestTrackableValue, significantDigits), highestTrackableValue);
    }

    private ExactRangeHistogram(Histogram histogram, long highestTrackable) {
        this.histogram = histogram;
        this.highestTrackable = highestTrackable;
    }

    /**
     * Records one value without allocating: values below 0 as 0, values above the highest
     * trackable value as that value.
     *
     * @param value the value, in the unit of the histogram (ns for latency)
     */
    public void record(long value) {
        long v = value < 0 ? 0 : Math.min(value, highestTrackable);
        histogram.recordValue(v);
        if (v < min) {
            min = v;
        }
        if (v > max) {
            max = v;
        }
    }

    /**
     * Adds every count of {@code other} to this histogram and widens the extremes to cover its own.
     *
     * @throws ArrayIndexOutOfBoundsException (from HdrHistogram) if {@code other} holds values
     *     beyond this histogram's range
     */
    public void add(ExactRangeHistogram other) {
        histogram.add(other.histogram);
        if (other.count() > 0) {
            min = Math.min(min, other.min);
            max = Math.max(max, other.max);
        }
    }

    /** @return an independent copy */
    public ExactRangeHistogram copy() {
        ExactRangeHistogram c = new ExactRangeHistogram(histogram.copy(), highestTrackable);
        c.min = min;
        c.max = max;
        return c;
    }

    /** @return a copy of the underlying HdrHistogram, for its log formats */
    public Histogram toHistogram() {
        return histogram.copy();
    }

    /** @return values recorded */
    public long count() {
        return histogram.getTotalCount();
    }

    /** @return decimal digits of precision of every value but min and max, which are exact */
    public int significantDigits() {
        return histogram.getNumberOfSignificantValueDigits();
    }

    /** @return the smallest value recorded, exactly; empty when nothing was */
    public OptionalLong min() {
        return count() == 0 ? OptionalLong.empty() : OptionalLong.of(min);
    }

    /** @return the largest value recorded, exactly; empty when nothing was */
    public OptionalLong max() {
        return count() == 0 ? OptionalLong.empty() : OptionalLong.of(max);
    }

    /**
     * @param percentile in [0, 100]
     * @return HdrHistogram's value at {@code percentile} clamped to [{@link #min()}, {@link #max()}];
     *     exactly min at 0 and max at 100; empty when nothing was recorded
     * @throws IllegalArgumentException if {@code percentile} is outside [0, 100], naming it
     */
    public OptionalLong valueAtPercentile(double percentile) {
        if (!(percentile >= 0 && percentile <= 100)) {
            throw new IllegalArgumentException("percentile " + percentile + " is out of range; allowed: [0, 100]");
        }
        if (count() == 0) {
            return OptionalLong.empty();
        }
        if (percentile == 0) {
            return OptionalLong.of(min);
        }
        if (percentile == 100) {
            return OptionalLong.of(max);
        }
        return OptionalLong.of(clamp(histogram.getValueAtPercentile(percentile)));
    }

    /** @return HdrHistogram's mean clamped to [{@link #min()}, {@link #max()}]; empty when nothing was recorded */
    public OptionalDouble mean() {
        if (count() == 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(Math.min(max, Math.max(min, histogram.getMean())));
    }

    /** @return HdrHistogram's population standard deviation; empty when nothing was recorded */
    public OptionalDouble stdDeviation() {
        return count() == 0 ? OptionalDouble.empty() : OptionalDouble.of(histogram.getStdDeviation());
    }

    private long clamp(long v) {
        return Math.min(max, Math.max(min, v));
    }

    /**
     * @return how precise the values are, for output headers: {@code HdrHistogram, 3 significant
     *     digits (values within 0.1 %); min and max exact, percentiles clamped to them}
     */
    public String precision() {
        return precision(significantDigits());
    }

    /**
     * @param significantDigits the histogram's decimal digits of precision, 0..5
     * @return the {@link #precision()} text of a histogram with that many digits
     */
    public static String precision(int significantDigits) {
        return "HdrHistogram, " + significantDigits + " significant digits (values within "
                + BigDecimal.ONE.movePointLeft(significantDigits - 2).stripTrailingZeros().toPlainString()
                + " %); min and max exact, percentiles clamped to them";
    }

    /** @return count, exact extremes and precision, for diagnostics */
    @Override
    public String toString() {
        return count() == 0 ? "ExactRangeHistogram[empty, " + significantDigits() + " significant digits]"
                : "ExactRangeHistogram[count=" + count() + ", min=" + min + ", max=" + max + ", "
                        + significantDigits() + " significant digits]";
    }

    /** @return whether {@code o} holds the same counts and extremes */
    @Override
    public boolean equals(Object o) {
        return o instanceof ExactRangeHistogram e && histogram.equals(e.histogram) && count() == e.count()
                && (count() == 0 || (min == e.min && max == e.max));
    }

    @Override
    public int hashCode() {
        return Objects.hash(histogram, count() == 0 ? 0 : min, count() == 0 ? 0 : max);
    }
}
