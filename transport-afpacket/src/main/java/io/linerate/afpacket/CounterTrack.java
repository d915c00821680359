package io.linerate.afpacket;

/**
 * The accumulation of one interface counter, the rule {@link NicCounters} documents: forward motion
 * into a process-local total; a reading below the last good one is held in doubt until the next
 * reading tells a glitch from a reset. The smallest motion the readings allow is counted; a
 * 32-bit wrap is never counted, only recorded as possible. Readings are unsigned 64-bit; times are
 * clock readings taken right before and right after the raw counters were read, so the span
 * between two samplings is at most from the earlier "before" to the later "after". Not
 * thread-safe.
 */
final class CounterTrack {
    static final long TWO_32 = 1L << 32;
    /** Wire bytes of the smallest Ethernet frame: 64 bytes, 8 of preamble and 12 of inter-frame gap. */
    static final long MIN_WIRE_FRAME_BYTES = 84;

    private final NicCounter counter;
    private final long[] events = new long[CounterEvent.values().length];
    private long total;
    private long last;
    private long lastBefore;
    private boolean seenAbove32;
    private boolean inDoubt;
    private long dip;
    private long dipBefore;
    private long dipAfter;
    private long dipLinkBps;

    CounterTrack(NicCounter counter) {
        this.counter = counter;
    }

    /**
     * Takes {@code value} as the base, adding nothing: the first reading, or the first of a
     * re-created interface (then counted as a {@link CounterEvent#RESET}, a held dip with it, and
     * the counter's width is learnt afresh).
     */
    void rebase(long value, long before, boolean recreated) {
        if (recreated) {
            events[CounterEvent.RESET.ordinal()]++;
            seenAbove32 = false;
        }
        inDoubt = false;
        last = value;
        lastBefore = before;
        seenAbove32 |= Long.compareUnsigned(value, TWO_32) >= 0;
    }

    /**
     * Accounts one reading. Where the readings allow more than one explanation (a glitch, a reset,
     * a 32-bit wrap), the smallest forward motion consistent with them is counted and the others
     * are recorded as {@link CounterEvent#AMBIGUOUS} or {@link CounterEvent#POSSIBLE_WRAP}.
     *
     * @param value the raw value
     * @param before clock reading right before the raw counters were read, ns
     * @param after clock reading right after, ns
     * @param linkBps link speed over the span from the previous reading, bit/s; 0 when unknown
     */
    void accept(long value, long before, long after, long linkBps) {
        if (inDoubt) {
            inDoubt = false;
            if (Long.compareUnsigned(value, last) >= 0) {
                // climbed back over the last good reading: the dip was a glitch
                events[CounterEvent.GLITCH.ordinal()]++;
                if (resetCouldExplain(value, after, linkBps)) {
                    events[CounterEvent.AMBIGUOUS.ordinal()]++;
                }
                advance(value, before, after - lastBefore, spanSpeed(dipLinkBps, linkBps));
                return;
            }
            // the dip stands: a reset, which adds nothing; a wrap through 2^32 would add more
            events[CounterEvent.RESET.ordinal()]++;
            if (!seenAbove32 && wrapFits(TWO_32 - last + dip, dipLinkBps, dipAfter - lastBefore)) {
                events[CounterEvent.POSSIBLE_WRAP.ordinal()]++;
            }
            last = dip;
            lastBefore = dipBefore;
        }
        if (Long.compareUnsigned(value, last) >= 0) {
            advance(value, before, after - lastBefore, linkBps);
        } else {
            inDoubt = true;
            dip = value;
            dipBefore = before;
            dipAfter = after;
            dipLinkBps = linkBps;
        }
    }

    /**
     * Counts the climb from the last good reading to {@code value}, over {@code nanos} on a link of
     * {@code linkBps}; a climb that could hide a whole 32-bit wrap is a possible wrap.
     */
    private void advance(long value, long before, long nanos, long linkBps) {
        long motion = value - last;
        seenAbove32 |= Long.compareUnsigned(value, TWO_32) >= 0;
        if (!seenAbove32 && wrapFits(motion + TWO_32, linkBps, nanos)) {
            events[CounterEvent.POSSIBLE_WRAP.ordinal()]++;
        }
        total += motion;
        last = value;
        lastBefore = before;
    }

    /**
     * @return whether the link could have carried {@code motion} (the motion a 32-bit wrap would
     *     mean) in {@code nanos}; never with the speed unknown: interfaces without a device behind
     *     them keep the kernel's 64-bit software counters
     */
    private boolean wrapFits(long motion, long linkBps, long nanos) {
        double cap = capacity(counter, linkBps, nanos);
        return Double.isFinite(cap) && (double) motion <= cap;
    }

    /** @return the speed bounding a span of two steps: the higher, when both are known; else unknown (0) */
    private static long spanSpeed(long first, long second) {
        return first > 0 && second > 0 ? Math.max(first, second) : 0;
    }

    /**
     * A reset followed by traffic explains a dip and a climb back over the last good reading when
     * the counter could have counted from 0 to the dip after the last good sampling, and from the
     * dip to {@code value} after the dip's sampling.
     */
    private boolean resetCouldExplain(long value, long after, long linkBps) {
        return unsigned(dip) <= capacity(counter, dipLinkBps, dipAfter - lastBefore)
                && unsigned(value - dip) <= capacity(counter, linkBps, after - dipBefore);
    }

    /**
     * @return the most {@code c} can move in {@code nanos} on a link of {@code linkBps}: bytes
     *     at most {@code linkBps / 8} per second, frames (packets, and receive drops, which arrived
     *     as frames) at most {@code linkBps / (8 · 84)}; infinite when the speed is unknown or the
     *     counter is not bounded by the link (transmit drops and errors happen before the wire,
     *     receive errors may be fragments)
     */
    static double capacity(NicCounter c, long linkBps, long nanos) {
        if (linkBps <= 0) {
            return Double.POSITIVE_INFINITY;
        }
        long bitsPerUnit = switch (c) {
            case RX_BYTES, TX_BYTES -> 8;
            case RX_PACKETS, TX_PACKETS, RX_DROPPED -> 8 * MIN_WIRE_FRAME_BYTES;
            default -> 0;
        };
        return bitsPerUnit == 0 ? Double.POSITIVE_INFINITY : (double) linkBps * Math.max(0, nanos) / (bitsPerUnit * 1e9);
    }

    private static double unsigned(long v) {
        return v >= 0 ? v : v + 0x1p64;
    }

    long total() {
        return total;
    }

    long events(CounterEvent e) {
        return events[e.ordinal()];
    }

    boolean inDoubt() {
        return inDoubt;
    }
}
