package io.linerate.core.spi;
import io.linerate.core.PacingWait;

/**
 * When the next message may leave to hold a target rate. A schedule has an origin (a clock
 * reading) and a base (bytes sent before it): the byte after {@code bytesSent} bytes may leave at
 * {@code origin + (bytesSent − base) × 8 × 10^9 / rate} ns. Deadlines are taken from the origin,
 * not chained from the previous send, so rounding never accumulates; how far a late sender may
 * catch up is bounded (see {@link #nanosUntilNext}).
 *
 * <p><b>What a schedule guarantees.</b> A message leaves only when its deadline has passed, and
 * catching up only ever moves the origin later. A sender that asks with the bytes it has sent
 * (its next message's first byte) lets out, from a schedule's origin {@code o} to any later
 * reading {@code t}, at most {@code rate × (t − o + 1 ns) / 8} bytes (deadlines are rounded down
 * to whole ns) plus the one message whose deadline is the latest. A sender that asks with the bytes
 * it will have sent after its next message (its last byte), as the stream sender does, lets out
 * at most {@code rate × (t − o + 1 ns) / 8} bytes: never above the target, whatever the message
 * size, stalls and catch-ups. A measured
 * window therefore starts a schedule of its own ({@link #anchor}) so that the warm-up's debt is not
 * carried into it.
 *
 * <p>Rate 0 means unlimited: every deadline is the origin, and nothing divides by the rate. The
 * per-bit cost is a {@code double} (ns per bit), so rates far above 2^32 bit/s keep sub-ns
 * resolution; products are exact to 1 ns for the first 2^53 ns (104 days) of a schedule.
 *
 * <p>One pacer per sending thread; it allocates nothing. {@link PacingWait} waits for its
 * deadlines.
 */
public final class Pacer {
    /** How far behind its schedule a paced sender may catch up, ns (20 ms). */
    public static final long MAX_CATCH_UP_NANOS = 20_000_000;

    private final long rateBitsPerSecond;
    private final double nanosPerBit;
    private long originNanos;
    private long baseBytes;

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
     * @param bytes payload bytes sent since the schedule's origin, at least 0
     * @return ns after the origin at which the next message may leave; 0 when unlimited
     */
    public long offsetNanos(long bytes) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        double ns = bytes * 8.0 * nanosPerBit;
        return ns >= Long.MAX_VALUE ? Long.MAX_VALUE : (long) ns;
    }

    /**
     * Starts the schedule with nothing sent; same as {@code anchor(nanos, 0)}.
     *
     * @param nanos clock reading at which byte 0 may leave
     */
    public void start(long nanos) {
        anchor(nanos, 0);
    }

    /**
     * Starts a new schedule: the byte after {@code bytesSent} may leave at {@code nanos}, and any
     * debt or credit of the old schedule is dropped.
     *
     * @param nanos clock reading at which the new schedule starts
     * @param bytesSent bytes sent before it, as later passed to {@link #nanosUntilNext}
     */
    public void anchor(long nanos, long bytesSent) {
        this.originNanos = nanos;
        this.baseBytes = bytesSent;
    }

    /**
     * Moves the schedule's origin to {@code nanos} when the byte after {@code bytesSent} was due
     * before it: a sender that starts late (its thread started after the schedule's origin was
     * taken) starts its schedule when it starts, instead of catching up the start-up's debt in one
     * burst of up to {@value #MAX_CATCH_UP_NANOS} ns of traffic at line rate. A schedule not yet due
     * is left as it is.
     *
     * @param nanos a reading of the clock, the sender's first
     * @param bytesSent bytes sent, counted as in {@link #anchor}
     */
    public void notBefore(long nanos, long bytesSent) {
        if (rateBitsPerSecond != 0 && originNanos + offsetNanos(bytesSent - baseBytes) < nanos) {
            anchor(nanos, bytesSent);
        }
    }

    /**
     * How long the next message must wait to hold the target rate. A sender that fell behind (a
     * stall, a slow start) catches up by at most {@value #MAX_CATCH_UP_NANOS} ns of traffic; the
     * rest of the debt is forgiven by moving the schedule's origin later, so that a stall never
     * turns into a burst above the target rate.
     *
     * @param bytesSent bytes sent since the start, counted as in {@link #anchor}
     * @param now a reading of the same clock
     * @return ns to wait, 0 or less when the message may leave now; 0 at an unlimited rate
     */
    public long nanosUntilNext(long bytesSent, long now) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        long deadline = originNanos + offsetNanos(bytesSent - baseBytes);
        long late = now - deadline;
        if (late > MAX_CATCH_UP_NANOS) {
            originNanos += late - MAX_CATCH_UP_NANOS;
            deadline = now - MAX_CATCH_UP_NANOS;
        }
        return deadline - now;
    }
}
