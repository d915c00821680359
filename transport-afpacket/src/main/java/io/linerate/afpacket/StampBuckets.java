package io.linerate.afpacket;

import io.linerate.core.Rates;
import java.util.ArrayList;
import java.util.List;

/**
 * Counts frames into buckets of one interval by their RX stamps, from the first frame's stamp.
 * The buckets are allocated before traffic, so counting allocates nothing. Receiving thread only.
 */
final class StampBuckets {
    private final long intervalNanos;
    private final long[] buckets;
    private long origin = Long.MIN_VALUE;
    private long last = Long.MIN_VALUE;
    private long outside;

    /** @param spanNanos the longest the run may last, ns */
    StampBuckets(long intervalNanos, long spanNanos) {
        this.intervalNanos = intervalNanos;
        this.buckets = new long[(int) Math.min(1_000_000, spanNanos / intervalNanos + 2)];
    }

    /** Counts a frame into the bucket of its RX stamp, ns. */
    void add(long stamp) {
        if (origin == Long.MIN_VALUE) {
            origin = stamp;
        }
        long i = (stamp - origin) / intervalNanos;
        if (i < 0 || i >= buckets.length) {
            outside++; // a stepped wall clock, or a run longer than planned
            return;
        }
        buckets[(int) i]++;
        if (stamp > last) {
            last = stamp;
        }
    }

    /** @return frames whose stamp fell outside every bucket */
    long outside() {
        return outside;
    }

    /** @return one interval per bucket up to the last frame's, the last one ending at its stamp; empty before any frame */
    List<StampInterval> intervals(int frameSize) {
        List<StampInterval> out = new ArrayList<>();
        if (origin == Long.MIN_VALUE) {
            return out;
        }
        long lastOffset = last - origin;
        int lastBucket = (int) Math.min(buckets.length - 1, lastOffset / intervalNanos);
        for (int i = 0; i <= lastBucket; i++) {
            long from = i * intervalNanos;
            long to = i == lastBucket ? lastOffset : from + intervalNanos;
            long n = buckets[i];
            out.add(new StampInterval(from / 1e9, to / 1e9, frameSize, n, Rates.perSecond(n, to - from),
                    Rates.bitsPerSecond(n * frameSize, to - from)));
        }
        return out;
    }
}
