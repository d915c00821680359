package io.linerate.core.spi.engine;

import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * The tick-and-window loop of a stream's measuring thread, shared by {@link StreamEngine} (both
 * ends here) and {@link StreamEnd} (one end here): readings at interval ticks on the grid of
 * {@link IntervalTicks}, each interval reported as a sample; the window opens with the reading at
 * the end of the warm-up (at once without one) and, when bound by a duration, closes with the
 * first reading at or after that duration from its opening (DESIGN rules 1 and 5). Between ticks
 * the thread parks. What else ends a window (a count bound, the end of the stream, a failure) is
 * the caller's {@link Step}.
 *
 * @param <R> a reading: every counter read together, then the clock
 */
final class WindowClock<R extends WindowClock.Sampled<R>> {

    /** A reading's clock time and the interval between two readings. */
    interface Sampled<R> {
        /** @return the clock reading taken after the counters, ns */
        long nanos();

        /**
         * @param from the reading the interval starts at
         * @param t0 the clock reading sample times count from, ns
         * @param omitted whether the interval is in the warm-up
         * @return the interval from {@code from} to this reading
         */
        IntervalSample since(R from, long t0, boolean omitted);
    }

    /** What a measuring loop does beside the schedule. */
    interface Step<R> {
        /** Once per turn, before the clock is read: fails the run when a loop failed, and publishes the live counters. */
        void poll() throws TransferException;

        /** @return every counter read together, then the clock */
        R read();

        /** The window's duration is over, read, and not yet reported (a sender stops marking its messages as the window's). */
        void durationOver();

        /**
         * @param now the clock reading of this turn, ns
         * @param previous the last reading reported
         * @return the reading that ends the window before any duration does (a count-bound transfer
         *     done, a stream that ended), already taken; null to go on
         * @throws TransferException when the run must end without a window (a silent path, an end
         *     that stopped too early)
         */
        R endsEarly(long now, R previous) throws TransferException;

        /**
         * @param opening the reading the window opened with
         * @return the reading the window's first interval counts from: {@code opening}, or it with
         *     window traffic that arrived in the warm-up counted in that interval
         */
        R windowOpened(R opening);
    }

    private final Clock clock;
    private final long t0;
    private final long warmupEnd;
    private final long interval;
    private final long duration;
    private final IntervalListener listener;
    private final List<IntervalSample> samples = new ArrayList<>();
    private R previous;
    private R windowStart;
    private R windowEnd;
    private long nextTick;
    private long windowDeadline = Long.MAX_VALUE;

    /**
     * @param clock the measuring thread's time source
     * @param first the reading at {@code t0}
     * @param t0 the start, ns, which sample times count from
     * @param warmupNanos the warm-up, ns; 0 opens the window with {@code first}
     * @param intervalNanos the reporting interval, ns, at least 1
     * @param durationNanos the window's length, ns; negative when no duration closes it
     * @param listener receives each sample on the measuring thread
     */
    WindowClock(Clock clock, R first, long t0, long warmupNanos, long intervalNanos, long durationNanos,
                IntervalListener listener) {
        this.clock = clock;
        this.previous = first;
        this.t0 = t0;
        this.warmupEnd = t0 + warmupNanos;
        this.interval = intervalNanos;
        this.duration = durationNanos;
        this.listener = listener;
        nextTick = Math.min(t0 + interval, warmupEnd > t0 ? warmupEnd : Long.MAX_VALUE);
        if (warmupEnd == t0) {
            windowStart = first;
            nextTick = t0 + interval;
            windowDeadline = closesAfter(t0);
        }
    }

    /**
     * Runs the loop until the window closes, on the calling thread.
     *
     * @param step the caller's part of each turn
     * @param longestPark the longest one park between turns, ns
     * @return the reading the window closed with, its last interval reported
     * @throws TransferException as {@code step} throws
     */
    R run(Step<R> step, long longestPark) throws TransferException {
        while (true) {
            step.poll();
            long now = clock.nanoTime();
            if (now >= windowDeadline) {
                R end = step.read();
                step.durationOver();
                return close(end);
            }
            R early = step.endsEarly(now, previous);
            if (early != null) {
                return close(early);
            }
            if (now >= nextTick) {
                tick(step, step.read());
                continue;
            }
            long wake = Math.min(nextTick, windowDeadline);
            LockSupport.parkNanos(Math.max(1, Math.min(wake - now, longestPark)));
        }
    }

    private void tick(Step<R> step, R r) {
        report(previous, r, windowStart == null);
        previous = r;
        if (windowStart == null && nextTick >= warmupEnd) {
            windowStart = r;
            previous = step.windowOpened(r);
            nextTick = saturatedAdd(r.nanos(), interval);
            windowDeadline = closesAfter(r.nanos());
        } else {
            nextTick = IntervalTicks.next(nextTick, windowStart == null ? t0 : windowStart.nanos(), interval,
                    windowStart == null, warmupEnd);
        }
        nextTick = Math.min(nextTick, windowDeadline);
    }

    private R close(R end) {
        windowEnd = end;
        report(previous, end, windowStart == null);
        return end;
    }

    private long closesAfter(long opening) {
        return duration < 0 ? Long.MAX_VALUE : saturatedAdd(opening, duration);
    }

    /** Reports the interval from {@code from} to {@code to} as a sample. */
    void report(R from, R to, boolean omitted) {
        IntervalSample s = to.since(from, t0, omitted);
        samples.add(s);
        listener.onInterval(s);
    }

    /** @return the samples reported so far, in order */
    List<IntervalSample> samples() {
        return samples;
    }

    /** @return the reading the window opened with; the closing one when it never opened (the run ended in the warm-up) */
    R windowStart() {
        return windowStart != null ? windowStart : windowEnd;
    }

    /** @return the start, ns */
    long t0() {
        return t0;
    }

    static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
