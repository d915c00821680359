package io.linerate.core.spi.latency;

/**
 * One flow's open-loop schedule (wrk2's constant-throughput model): the k-th request is due at
 * {@code first + k·interval} ns, whenever the previous response came, and its latency is measured
 * from that due time, so time spent queued behind a slow response shows in the latency
 * (coordinated omission, as wrk2 corrects it). A request that leaves an interval or more after it
 * was due left <i>late</i>: the schedule had fallen a whole send behind. The count of late sends
 * and the largest lateness are kept, over the measured window where one is given
 * ({@link #countLatenessIn}); allocation-free, for the flow's thread alone.
 *
 * <p>A measured window holds the requests <i>due</i> inside it ({@link #inWindow}), not those that
 * happen to complete in it: a backlog of the warm-up caught up after the window opened is not
 * counted in it, so a window of {@code w} ns holds at most {@code w / interval + 1} requests of a
 * flow, and never runs above the target rate.
 */
public final class OpenLoopSchedule {
    private final long intervalNanos;
    private long due;
    private long late;
    private long maxLatenessNanos;
    private boolean windowed;
    private long countOpen;
    private long countClose;

    /**
     * @param firstNanos clock reading at which the first request is due
     * @param intervalNanos ns between due times, at least 1
     * @throws IllegalArgumentException when the interval is below 1 ns
     */
    public OpenLoopSchedule(long firstNanos, long intervalNanos) {
        if (intervalNanos < 1) {
            throw new IllegalArgumentException("open-loop interval " + intervalNanos + " ns is out of range; allowed: 1 ns or more");
        }
        this.due = firstNanos;
        this.intervalNanos = intervalNanos;
    }

    /** @return the clock reading at which the next request is due */
    public long due() {
        return due;
    }

    /**
     * The next request leaves now; the schedule moves on to the one after it.
     *
     * @param now a clock reading, at or after {@link #due()}
     * @return the request's due time, from which its latency is measured
     */
    public long leave(long now) {
        long scheduled = due;
        long lateness = now - scheduled;
        if (!windowed || inWindow(scheduled, countOpen, countClose)) {
            if (lateness >= intervalNanos) {
                late++;
            }
            if (lateness > maxLatenessNanos) {
                maxLatenessNanos = lateness;
            }
        }
        due = scheduled + intervalNanos;
        return scheduled;
    }

    /**
     * From now on, counts the lateness of requests due in [open, close) only ({@link #inWindow}):
     * those of the measured window, not a warm-up's; before a call, every request counts.
     *
     * @param openNanos the window's opening (a clock reading; {@code Long.MAX_VALUE} while it is not open)
     * @param closeNanos its closing
     */
    public void countLatenessIn(long openNanos, long closeNanos) {
        windowed = true;
        countOpen = openNanos;
        countClose = closeNanos;
    }

    /** @return requests that left an interval or more after they were due (in the counted window, where one is set) */
    public long lateSends() {
        return late;
    }

    /** @return the largest time a request left after it was due, ns (in the counted window, where one is set); 0 when none left late at all */
    public long maxLatenessNanos() {
        return maxLatenessNanos;
    }

    /**
     * @param dueNanos a request's due time
     * @param openNanos the window's opening, a due-time boundary
     * @param closeNanos its closing
     * @return whether the request belongs to the window [open, close)
     */
    public static boolean inWindow(long dueNanos, long openNanos, long closeNanos) {
        return dueNanos - openNanos >= 0 && dueNanos - closeNanos < 0;
    }
}
