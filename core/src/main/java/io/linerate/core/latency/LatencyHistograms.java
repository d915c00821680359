package io.linerate.core.latency;

import java.util.Collection;

/**
 * Latency histograms of one fixed shape, so that recording never resizes (no allocation) and any
 * two can be merged: values 0..{@value #HIGHEST_TRACKABLE_NANOS} ns at
 * {@value #SIGNIFICANT_DIGITS} significant decimal digits (HdrHistogram), with the exact min and
 * max kept beside them ({@link ExactRangeHistogram}). Percentiles are only ever taken from a
 * merged histogram, never averaged.
 */
public final class LatencyHistograms {
    /** Largest value kept exactly in range, ns (one hour); larger values are clamped to it. */
    public static final long HIGHEST_TRACKABLE_NANOS = 3_600_000_000_000L;
    /** Value precision: 3 decimal digits, so relative error at most 0.1 %. */
    public static final int SIGNIFICANT_DIGITS = 3;

    private LatencyHistograms() {}

    /** @return an empty histogram of the fixed shape; it does not auto-resize */
    public static ExactRangeHistogram create() {
        return new ExactRangeHistogram(1, HIGHEST_TRACKABLE_NANOS, SIGNIFICANT_DIGITS);
    }

    /**
     * Records one value without allocating. Values below 0 are recorded as 0 and values above
     * {@link #HIGHEST_TRACKABLE_NANOS} as that bound, so a record never throws.
     *
     * @param h a histogram from {@link #create()}
     * @param nanos the value, ns
     */
    public static void record(ExactRangeHistogram h, long nanos) {
        h.record(nanos);
    }

    /**
     * @param parts histograms of the fixed shape
     * @return a new histogram holding every count of every part (their sum) and the extremes of
     *     all of them, for percentiles across flows or runs
     */
    public static ExactRangeHistogram merge(Collection<ExactRangeHistogram> parts) {
        ExactRangeHistogram all = create();
        for (ExactRangeHistogram h : parts) {
            all.add(h);
        }
        return all;
    }

    /** @return {@link ExactRangeHistogram#precision()} of the fixed shape, for output headers */
    public static String precision() {
        return ExactRangeHistogram.precision(SIGNIFICANT_DIGITS);
    }
}
