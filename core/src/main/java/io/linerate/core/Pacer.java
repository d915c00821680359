package io.linerate.core;

/**
 * When the next message may leave to hold a target rate: the send deadline of the byte after
 * {@code bytesSent} bytes is {@code start + bytesSent × 8 × 10^9 / rate} ns. Deadlines are taken
 * from the start, not chained from the previous send, so rounding never accumulates; how far a
 * late sender may catch up is bounded (see {@link #nanosUntilNext}).
 *
 * <p>Rate 0 means unlimited: every deadline is the start, and nothing divides by the rate. The
 * per-bit cost is a {@code double} (ns per bit), so rates far above 2^32 bit/s keep sub-ns
 * resolution; products are exact to 1 ns for the first 2^53 ns (104 days) of a transfer.
 *
 * <p>{@link #nanosUntilNext} keeps the schedule's origin: one pacer per sending thread.
 */
public final class Pacer {
    /** How far behind its schedule a paced sender may catch up, ns (20 ms). */
    public static final long MAX_CATCH_UP_NANOS = 20_000_000;

    private final long rateBitsPerSecond;
    private final double nanosPerBit;
    private long originNanos;

    /**
     * @param rateBitsPerSecond target in bit/s, 0 for unlimited
     * @throws IllegalArgumentException if the rate is negative
     */
    public Pacer(long rateBitsPerSecond) {
        if (rateBitsPerSecond < 0) {
            throw new IllegalArgumentException("rate " + rateBitsPerSecond + " bit/s is out of range; allowed: 0 (unlimited) or more");
        }
        this.rateBitsPerSecond = rateBitsPerSecond;
        this.nanosPerBit = rateBitsPerSecond == 0 ? 0.0 : 1e9 / rateBitsPerSecond;
    }

    /** @return whether this pacer never waits */
    public boolean unlimited() {
        return rateBitsPerSecond == 0;
    }

    /** @return the target in bit/s, 0 for unlimited */
    public long rateBitsPerSecond() {
        return rateBitsPerSecond;
    }

    /**
     * @param bytesSent payload bytes sent since the start, at least 0
     * @return ns after the start at which the next message may leave; 0 when unlimited
     */
    public long offsetNanos(long bytesSent) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        double ns = bytesSent * 8.0 * nanosPerBit;
        return ns >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) ns;
    }

    /** @param nanos clock reading at which the schedule starts (byte 0 may leave then) */
    public void start(long nanos) {
        this.originNanos = nanos;
    }

    /**
     * How long the next message must wait to hold the target rate. A sender that fell behind (a
     * stall, a slow start) catches up by at most {@value #MAX_CATCH_UP_NANOS} ns of traffic; the
     * rest of the debt is forgiven by moving the schedule's origin, so that a stall never turns
     * into a burst above the target rate.
     *
     * @param bytesSent bytes sent since {@link #start}
     * @param now a reading of the same clock
     * @return ns to wait, 0 or less when the message may leave now; 0 at an unlimited rate
     */
    public long nanosUntilNext(long bytesSent, long now) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        long deadline = originNanos + offsetNanos(bytesSent);
        long late = now - deadline;
        if (late > MAX_CATCH_UP_NANOS) {
            originNanos += late - MAX_CATCH_UP_NANOS;
            deadline = now - MAX_CATCH_UP_NANOS;
        }
        return deadline - now;
    }
}
