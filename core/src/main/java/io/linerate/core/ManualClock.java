package io.linerate.core;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/** A clock that moves only when told to; for tests. Thread-safe. */
public final class ManualClock implements Clock {
    private final AtomicLong now;

    /** @param startNanos the first reading, in nanoseconds */
    public ManualClock(long startNanos) {
        this.now = new AtomicLong(startNanos);
    }

    /** A clock that starts at 0 ns. */
    public ManualClock() {
        this(0);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /**
     * Moves the clock forward.
     *
     * @param nanos nanoseconds to add, at least 0
     * @return the new reading
     * @throws IllegalArgumentException if {@code nanos} is negative: a monotonic clock never goes back
     */
    public long advance(long nanos) {
        if (nanos < 0) {
            throw new IllegalArgumentException("a monotonic clock cannot move back by " + nanos + " ns; allowed: >= 0");
        }
        return now.addAndGet(nanos);
    }

    /** Moves the clock forward by {@code d}; see {@link #advance(long)}. */
    public long advance(Duration d) {
        return advance(d.toNanos());
    }
}
