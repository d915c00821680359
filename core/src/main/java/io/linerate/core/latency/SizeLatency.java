package io.linerate.core.latency;

import java.util.Objects;

/**
 * The measured samples of one message size.
 *
 * @param sizeBytes message size, bytes
 * @param roundTrips round-trip times of the measured part (warm-up excluded), ns, with their exact
 *     min and max; not copied, so the caller does not record into it afterwards
 * @param measuredNanos length of the measured part, ns
 * @param endSeconds seconds from the start of the run to the end of this size, for metric lines
 */
public record SizeLatency(int sizeBytes, ExactRangeHistogram roundTrips, long measuredNanos, double endSeconds) {
    /** @throws IllegalArgumentException for a size below 1 or a negative length or time */
    public SizeLatency {
        Objects.requireNonNull(roundTrips, "roundTrips");
        if (sizeBytes < 1) {
            throw new IllegalArgumentException("message size " + sizeBytes + " bytes is out of range; allowed: >= 1");
        }
        if (measuredNanos < 0) {
            throw new IllegalArgumentException("measured time " + measuredNanos + " ns is out of range; allowed: >= 0");
        }
        if (!(endSeconds >= 0)) {
            throw new IllegalArgumentException("end time " + endSeconds + " s is out of range; allowed: >= 0");
        }
    }

    /** @return the statistics of this size */
    public LatencyStats stats(double percentile, LatencyMode mode) {
        return LatencyStats.of(roundTrips, percentile, mode);
    }
}
