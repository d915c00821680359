package io.linerate.afpacket;

import java.util.Locale;

/**
 * How a raw run's loops wait when they have nothing to do: the sender while the kernel has no room
 * for its frames (sendmmsg refused with ENOBUFS, or a full TX ring, and while the TX ring drains),
 * the receiver while every ring is empty. Each is an Agrona
 * {@link org.agrona.concurrent.IdleStrategy}, except the receiver's {@link #SLEEP}, which sleeps in
 * poll(2) until the kernel hands it a block. Pacing never waits here: a paced sender parks until
 * shortly before its next send time ({@link io.linerate.core.PacingWait}).
 *
 * <p>Without a choice, the sender yields and the receiver sleeps in poll(2).
 */
public enum RawIdle {
    /** Spin ({@code BusySpinIdleStrategy}): the lowest wake-up latency, a whole core. */
    BUSY("busy"),
    /** {@code Thread.yield()} ({@code YieldingIdleStrategy}): a whole core unless another thread wants it. */
    YIELD("yield"),
    /** Spin, then yield, then park from 1 µs doubling up to 1 ms ({@code BackoffIdleStrategy}). */
    BACKOFF("backoff"),
    /**
     * The sender parks {@value IdleStrategies#SLEEP_NANOS} ns at a time
     * ({@code SleepingIdleStrategy}); the receiver sleeps in poll(2) until a block is ready, at
     * most {@value IdleStrategies#POLL_MILLIS} ms.
     */
    SLEEP("sleep");

    private final String label;

    RawIdle(String label) {
        this.label = label;
    }

    /** @return the lower-case name used on the command line and in output */
    public String label() {
        return label;
    }

    /**
     * @param text a {@link #label()}, in any case
     * @return the mode it names
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static RawIdle parse(String text) {
        for (RawIdle m : values()) {
            if (m.label.equals(text.strip().toLowerCase(Locale.ROOT))) {
                return m;
            }
        }
        throw new IllegalArgumentException("idle mode '" + text + "' is not known; allowed: busy, yield, backoff, sleep");
    }
}
