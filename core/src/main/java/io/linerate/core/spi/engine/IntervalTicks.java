package io.linerate.core.spi.engine;

/**
 * Where the next interval reading of a monitor loop falls: on the grid of whole intervals from the
 * window's opening reading (from the transfer's start during the warm-up), never past the warm-up's
 * end while warming up, so that the window opens on a tick boundary (DESIGN rule 5).
 */
final class IntervalTicks {
    private IntervalTicks() {}

    /**
     * @param tick the tick just taken, ns
     * @param base the window's opening reading, or the transfer's start before the window opened, ns
     * @param interval the reporting interval, ns, at least 1
     * @param warming whether the window has not opened yet
     * @param warmupEnd when the warm-up ends, ns
     * @return the next tick after {@code tick} on the grid from {@code base}, capped at
     *     {@code warmupEnd} while warming up
     */
    static long next(long tick, long base, long interval, boolean warming, long warmupEnd) {
        long k = (tick - base) / interval + 1;
        long next = base + k * interval;
        return warming ? Math.min(next, warmupEnd) : next;
    }
}
