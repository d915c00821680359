package io.linerate.core;

import java.time.Duration;

/**
 * What ends a transfer: a measured duration, or a fixed count of bytes or messages. A count bound
 * makes runs comparable across hosts of different speed; a duration bound makes them comparable in
 * wall time.
 *
 * @param kind which of the three bounds this is
 * @param amount nanoseconds, bytes or messages, always at least 1
 */
public record Bound(Kind kind, long amount) {

    /** The three ways a transfer can end. */
    public enum Kind {
        /** {@code amount} is the measured window in ns; warm-up comes before it. */
        DURATION,
        /** {@code amount} is the number of payload bytes the sender sends. */
        BYTES,
        /** {@code amount} is the number of messages (writes or datagrams) the sender sends. */
        MESSAGES
    }

    /** Longest duration bound accepted: one day. */
    public static final Duration MAX_DURATION = Duration.ofDays(1);

    /** @throws IllegalArgumentException if the amount is not positive or the duration above a day */
    public Bound {
        if (kind == null) {
            throw new IllegalArgumentException("bound kind is required");
        }
        if (amount <= 0) {
            throw new IllegalArgumentException(describe(kind, amount) + " is out of range; allowed: > 0");
        }
        if (kind == Kind.DURATION && amount > MAX_DURATION.toNanos()) {
            throw new IllegalArgumentException(describe(kind, amount) + " is out of range; allowed: up to 1 day");
        }
    }

    /** @param d measured window, positive, at most a day */
    public static Bound duration(Duration d) {
        if (d == null) {
            throw new IllegalArgumentException("duration is required");
        }
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException("duration " + Units.text(d) + " is out of range; allowed: > 0");
        }
        if (d.compareTo(MAX_DURATION) > 0) {
            throw new IllegalArgumentException("duration " + d.toString().substring(2).toLowerCase(java.util.Locale.ROOT)
                    + " (" + d.toSeconds() + " s) is out of range; allowed: up to 1 day");
        }
        return new Bound(Kind.DURATION, d.toNanos());
    }

    /** @param bytes payload bytes to send, at least 1 */
    public static Bound bytes(long bytes) {
        return new Bound(Kind.BYTES, bytes);
    }

    /** @param messages writes or datagrams to send, at least 1 */
    public static Bound messages(long messages) {
        return new Bound(Kind.MESSAGES, messages);
    }

    /** @return {@code 2.000 s}, {@code 5000000 bytes} or {@code 7 messages} */
    @Override
    public String toString() {
        return switch (kind) {
            case DURATION -> String.format(java.util.Locale.ROOT, "%.3f s", amount / 1e9);
            case BYTES -> amount + " bytes";
            case MESSAGES -> amount + " messages";
        };
    }

    private static String describe(Kind kind, long amount) {
        return switch (kind) {
            case DURATION -> "duration " + amount + " ns";
            case BYTES -> "byte count " + amount;
            case MESSAGES -> "message count " + amount;
        };
    }
}
