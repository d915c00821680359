package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.DatagramHeader;

/**
 * The times of one raw run, all readings of its clock: the start, the end of the warm-up (the
 * start of the measured window) and the end of the window.
 *
 * @param t0 when the run started, ns
 * @param measureStart when the measured window opens, ns
 * @param end when the measured window closes, ns
 * @param intervalNanos interval sample length, ns
 */
record RunSchedule(long t0, long measureStart, long end, long intervalNanos) {

    static RunSchedule start(long t0, RawTransferSpec spec) {
        long measureStart = t0 + spec.warmup().toNanos();
        return new RunSchedule(t0, measureStart, measureStart + spec.duration().toNanos(), spec.interval().toNanos());
    }

    /** @return the phase a frame sent at {@code now} carries: warm-up before the window, else the window's */
    int phaseAt(long now) {
        return now >= measureStart ? DatagramHeader.WINDOW : DatagramHeader.WARMUP;
    }

    /**
     * The next interval boundary after {@code now}: intervals run from the start, the end of the
     * warm-up is a boundary, and the measured window's intervals run from there, so that no
     * interval straddles the warm-up and the window.
     */
    long nextTick(long now) {
        if (now < measureStart) {
            return Math.min(t0 + ((now - t0) / intervalNanos + 1) * intervalNanos, measureStart);
        }
        return measureStart + ((now - measureStart) / intervalNanos + 1) * intervalNanos;
    }
}
