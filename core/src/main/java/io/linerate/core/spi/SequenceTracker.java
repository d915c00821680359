package io.linerate.core.spi;

/**
 * Classifies arriving sequence numbers (DESIGN rule 3): each one is new in order, new but
 * reordered (it arrived after a higher number), or a duplicate (it had arrived already).
 * Loss is never guessed here: it is {@code sent − distinct()}, so reordering and duplication
 * cannot change it, and loss at the tail counts once the sender's count is known.
 *
 * <p>Numbers within {@value #WINDOW} of the highest seen are remembered exactly in a bitmap; an
 * older one cannot be told from a duplicate and is counted as reordered (it is also counted as
 * distinct). Sequence numbers start at 0 and must not be negative. Allocation-free after
 * construction; single-threaded.
 */
public final class SequenceTracker {
    /** How many sequence numbers below the highest are remembered exactly. */
    public static final int WINDOW = 1 << 16;
    private static final int MASK = WINDOW - 1;

    /** Outcome of one arrival. */
    public enum Arrival {
        /** Higher than every number before it. */
        IN_ORDER,
        /** New, but lower than the highest number already seen. */
        REORDERED,
        /** Seen before; not counted as received again. */
        DUPLICATE,
        /** Negative: not a sequence number linerate sends; ignored. */
        INVALID
    }

    private final long[] bits = new long[WINDOW / 64];
    private long highest = -1;
    private long distinct;
    private long reordered;
    private long duplicates;

    /**
     * @param seq the arriving sequence number
     * @return how it was counted
     */
    public Arrival onArrival(long seq) {
        if (seq < 0) {
            return Arrival.INVALID;
        }
        if (seq > highest) {
            long gap = seq - highest - 1;
            if (gap >= WINDOW) {
                java.util.Arrays.fill(bits, 0L);
            } else {
                for (long s = highest + 1; s < seq; s++) {
                    clear(s);
                }
            }
            set(seq);
            highest = seq;
            distinct++;
            return Arrival.IN_ORDER;
        }
        if (highest - seq >= WINDOW) {
            distinct++;
            reordered++;
            return Arrival.REORDERED;
        }
        if (isSet(seq)) {
            duplicates++;
            return Arrival.DUPLICATE;
        }
        set(seq);
        distinct++;
        reordered++;
        return Arrival.REORDERED;
    }

    /** @return distinct sequence numbers received */
    public long distinct() {
        return distinct;
    }

    /** @return arrivals lower than a number already seen, excluding duplicates */
    public long reordered() {
        return reordered;
    }

    /** @return arrivals of a number already seen */
    public long duplicates() {
        return duplicates;
    }

    /** @return highest sequence number seen, -1 before the first */
    public long highest() {
        return highest;
    }

    /**
     * @return numbers below the highest that have not arrived (yet); excludes loss at the tail,
     *     which only the sender's count reveals
     */
    public long missingSoFar() {
        return highest + 1 - distinct;
    }

    /**
     * @param sent datagrams the sender sent
     * @return {@code sent − distinct()}, trailing loss included; 0 if more arrived than were sent
     */
    public long lost(long sent) {
        return Math.max(0, sent - distinct);
    }

    private void set(long s) {
        int i = (int) (s & MASK);
        bits[i >>> 6] |= 1L << i;
    }

    private void clear(long s) {
        int i = (int) (s & MASK);
        bits[i >>> 6] &= ~(1L << i);
    }

    private boolean isSet(long s) {
        int i = (int) (s & MASK);
        return (bits[i >>> 6] & (1L << i)) != 0;
    }
}
