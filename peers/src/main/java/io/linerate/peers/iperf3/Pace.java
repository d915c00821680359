package io.linerate.peers.iperf3;

import io.linerate.core.PacingWait;

/**
 * How a sending stream is paced: its rate and its pacing timer (iperf3's {@code --pacing-timer},
 * sent as the {@code pacing_timer} parameter in microseconds; see {@link PacingWait}).
 *
 * @param bitsPerSecond the stream's target rate, bit/s; 0 = unlimited
 * @param tickNanos the pacing timer, ns, 0..{@value PacingWait#MAX_TICK_NANOS}; 0 = a wake-up per message
 */
record Pace(long bitsPerSecond, long tickNanos) {
    /** iperf3's default pacing timer, µs, assumed when a client sends none. */
    static final long DEFAULT_TIMER_MICROS = 1000;

    Pace {
        if (bitsPerSecond < 0) {
            throw new IllegalArgumentException("rate " + bitsPerSecond + " bit/s is negative; allowed: 0 (unlimited) or more");
        }
        if (tickNanos < 0 || tickNanos > PacingWait.MAX_TICK_NANOS) {
            throw new IllegalArgumentException("pacing timer " + tickNanos + " ns is out of range; allowed: 0.."
                    + PacingWait.MAX_TICK_NANOS + " ns");
        }
    }

    /**
     * The pace an iperf3 client asked for. A timer beyond linerate's longest is shortened to it: a
     * shorter timer only wakes the sender more often, and keeps its rate.
     *
     * @param timerMicros the client's {@code pacing_timer}, µs, 0 or more
     */
    static Pace ofClient(long bitsPerSecond, long timerMicros) {
        long nanos = timerMicros > PacingWait.MAX_TICK_NANOS / 1000 ? PacingWait.MAX_TICK_NANOS : timerMicros * 1000;
        return new Pace(bitsPerSecond, nanos);
    }
}
