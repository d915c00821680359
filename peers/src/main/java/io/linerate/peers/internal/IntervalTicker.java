package io.linerate.peers.internal;

import io.linerate.core.IntervalSample;

/**
 * Cuts one end's running counts into interval samples, for a client whose send or receive loop
 * (or whose watch of its streams' counters) checks {@link #due} on its own thread: the check is one
 * comparison and allocates nothing, and a sample is made only when an interval closes. Each
 * sample's start and end are nanoseconds since the ticker's start; its bytes and datagrams are the
 * change of the running totals since the previous sample. Loss and jitter are not this end's to
 * count (0 and empty). Not thread-safe: one thread ticks.
 */
public final class IntervalTicker {
    /** A last, partial interval shorter than this is dropped, ns: 10 ms, linerate's shortest interval. */
    static final long MIN_LAST_NANOS = 10_000_000L;
    private final long start;
    private final long interval;
    private long next;
    private long lastEnd;
    private long lastBytes;
    private long lastDatagrams;

    /**
     * @param startNanos the clock reading the run started at, ns
     * @param intervalNanos the length of one interval, ns, more than 0
     * @throws IllegalArgumentException for an interval of 0 ns or less, naming the value
     */
    public IntervalTicker(long startNanos, long intervalNanos) {
        if (intervalNanos <= 0) {
            throw new IllegalArgumentException("interval " + intervalNanos + " ns is out of range; allowed: 1 ns or more");
        }
        this.start = startNanos;
        this.interval = intervalNanos;
        this.next = startNanos + intervalNanos;
        this.lastEnd = startNanos;
    }

    /** @return whether an interval has closed by {@code nowNanos}; allocates nothing */
    public boolean due(long nowNanos) {
        return nowNanos >= next;
    }

    /**
     * Closes the interval at {@code nowNanos}; the next one closes an interval length after the one
     * this closed was due (a late check does not shift the grid).
     *
     * @param nowNanos the clock reading, taken right after the counts were read
     * @param bytes payload bytes so far
     * @param datagrams datagrams so far (0 for TCP)
     * @return the interval's sample
     */
    public IntervalSample tick(long nowNanos, long bytes, long datagrams) {
        IntervalSample s = sample(nowNanos, bytes, datagrams);
        while (next <= nowNanos) {
            next += interval;
        }
        return s;
    }

    /**
     * @return the last, partial interval up to {@code nowNanos}, or null when it is shorter than
     *     10 ms and carries no bytes
     */
    public IntervalSample last(long nowNanos, long bytes, long datagrams) {
        if (nowNanos - lastEnd < MIN_LAST_NANOS && bytes == lastBytes) {
            return null;
        }
        return sample(nowNanos, bytes, datagrams);
    }

    private IntervalSample sample(long nowNanos, long bytes, long datagrams) {
        IntervalSample s = new IntervalSample(lastEnd - start, nowNanos - start, bytes - lastBytes,
                datagrams - lastDatagrams, 0, false);
        lastEnd = nowNanos;
        lastBytes = bytes;
        lastDatagrams = datagrams;
        return s;
    }
}
