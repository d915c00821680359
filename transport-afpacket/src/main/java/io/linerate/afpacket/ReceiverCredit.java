package io.linerate.afpacket;

/**
 * The sender's credit from a receiver in the same process: the sender never has more than
 * {@link #limit()} frames of a stream in flight, frames sent that the receiver has neither read
 * from its ring nor seen to be missing (a later frame arrived). The receiver publishes, after
 * every drained block, the distinct frames read and the sequence numbers missing so far; their
 * sum is the highest sequence number read + 1. Reading the distinct count before the missing one
 * never overstates it (both are published with ordered stores, distinct first, and distinct only
 * grows), so frames in flight are never understated. The limit is half what the ring holds
 * (see {@link FrameReceiver#ringFrames()}), and once out of credit the sender resumes only with a
 * block's worth of it: the kernel retires a block part full when it has not filled within the
 * retire timeout (as when a starved receiver returns credit a trickle at a time), and the other
 * half of the ring is room for such blocks, so linerate's own ring does not overflow when its
 * receiving thread is starved.
 *
 * <p>When a stream has no credit, the sender waits (its Agrona idle strategy) and
 * {@link #waiting} counts one wait; credit that does not return within the timeout ends the run
 * with an error naming the stream and the frames in flight. Used by the sending thread alone; it
 * allocates nothing once built. {@link #none()} grants every request (one end here, or unpaced).
 */
final class ReceiverCredit {
    private final RxStream[] rx;
    private final long limit;
    private final long minGrant;
    private final long ringFrames;
    private final long timeoutNanos;
    private long waitingSince = Long.MIN_VALUE;
    private long waits;
    private long maxInFlight;

    private ReceiverCredit(RxStream[] rx, long limit, long minGrant, long ringFrames, long timeoutNanos) {
        this.rx = rx;
        this.limit = limit;
        this.minGrant = minGrant;
        this.ringFrames = ringFrames;
        this.timeoutNanos = timeoutNanos;
    }

    /** @return a credit that never limits the sender */
    static ReceiverCredit none() {
        return new ReceiverCredit(null, 0, 0, 0, 0);
    }

    /**
     * @param receiver the receiving end in this process, one ring per stream of the sender
     * @param timeoutNanos longest wait for credit before the run ends with an error, ns, above 0
     * @throws IllegalArgumentException if the timeout is not positive
     */
    static ReceiverCredit of(FrameReceiver receiver, long timeoutNanos) {
        return of(receiver.streams(), receiver.ringFrames(), receiver.blockFrames(), timeoutNanos);
    }

    /**
     * @param rx the receiver's streams, one per stream of the sender
     * @param ringFrames frames each of their rings holds, at least 1
     * @param blockFrames frames one of its blocks holds, at least 1
     * @param timeoutNanos longest wait for credit, ns, above 0
     * @throws IllegalArgumentException naming a value out of range
     */
    static ReceiverCredit of(RxStream[] rx, long ringFrames, long blockFrames, long timeoutNanos) {
        if (timeoutNanos <= 0) {
            throw new IllegalArgumentException("credit timeout " + timeoutNanos + " ns is out of range; allowed: 1 or more");
        }
        if (ringFrames < 1) {
            throw new IllegalArgumentException("ring of " + ringFrames + " frames is out of range; allowed: 1 or more");
        }
        if (blockFrames < 1) {
            throw new IllegalArgumentException("block of " + blockFrames + " frames is out of range; allowed: 1 or more");
        }
        long limit = limitFor(ringFrames);
        return new ReceiverCredit(rx.clone(), limit, Math.min(blockFrames, limit), ringFrames, timeoutNanos);
    }

    /**
     * @param ringFrames frames one ring holds, at least 1
     * @return the credit: half the ring, at least 1 frame
     */
    static long limitFor(long ringFrames) {
        return Math.max(1, ringFrames / 2);
    }

    /** @return whether this credit limits the sender */
    boolean active() {
        return rx != null;
    }

    /**
     * @param stream the stream's index
     * @param sent frames of the stream sent so far, all phases
     * @param want frames the sender would send now, above 0
     * @return frames it may send now: {@code want} at most, 0 when the credit left is less than a
     *     block's worth (or the whole credit, if smaller)
     */
    int grant(int stream, long sent, int want) {
        if (rx == null) {
            return want;
        }
        long room = limit - inFlight(stream, sent);
        return room < minGrant ? 0 : (int) Math.min(want, room);
    }

    /** Notes the frames in flight right after a send; {@code sent} counts the frames just sent. */
    void sent(int stream, long sent) {
        if (rx != null) {
            maxInFlight = Math.max(maxInFlight, inFlight(stream, sent));
        }
    }

    /**
     * Notes that the sender is out of credit at {@code now}.
     *
     * @throws CreditTimeoutException once credit has not returned for longer than the timeout
     */
    void waiting(int stream, long sent, long now) {
        if (waitingSince == Long.MIN_VALUE) {
            waitingSince = now;
            waits++;
        } else if (now - waitingSince > timeoutNanos) {
            throw new CreditTimeoutException(stream, inFlight(stream, sent), limit, timeoutNanos);
        }
    }

    /** Notes that credit was granted. */
    void granted() {
        waitingSince = Long.MIN_VALUE;
    }

    private long inFlight(int stream, long sent) {
        RxStream r = rx[stream];
        long distinct = r.publishedDistinct();
        return sent - (distinct + r.publishedMissing());
    }

    /** @return the credit, frames in flight per stream at most; 0 without credit */
    long limit() {
        return limit;
    }

    /** @return frames one receiver ring holds; 0 without credit */
    long ringFrames() {
        return ringFrames;
    }

    /** @return times the sender ran out of credit and waited; only after the sending thread ended */
    long waits() {
        return waits;
    }

    /** @return most frames of a stream in flight right after a send; only after the sending thread ended */
    long maxInFlight() {
        return maxInFlight;
    }

    /** Credit that did not return in time: the receiver stalled, or frames vanished before its ring. */
    static final class CreditTimeoutException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        CreditTimeoutException(int stream, long inFlight, long limit, long timeoutNanos) {
            super(String.format(java.util.Locale.ROOT, "stream %d: the receiver returned no credit for %d ms with %d frames "
                    + "in flight (credit %d frames): it stalled, or frames were lost before its ring without a later "
                    + "frame arriving", stream, timeoutNanos / 1_000_000L, inFlight, limit));
        }
    }
}
