package io.linerate.afpacket;

import io.linerate.core.Clock;
import org.agrona.concurrent.IdleStrategy;

/**
 * How frames leave: sendmmsg in batches ({@link MmsgFrameSender}) or a TPACKET TX ring
 * ({@link RingFrameSender}). {@link SendLoop} drives either with one pacing and accounting loop;
 * an implementation only puts frames in the kernel's hands. Used by the sending thread alone;
 * {@link #close()} releases the socket (and the ring).
 */
interface FrameSender extends AutoCloseable {

    /**
     * Hands up to {@code count} frames of {@code stream} to the kernel, numbered from its
     * {@link TxStream#nextSeq}, each stamped with {@code now} and {@code phase}. Allocates nothing.
     *
     * @return frames accepted, 0 when the kernel has no room now (the caller tries again)
     * @throws AfPacketException when the kernel refuses for good (the interface went down)
     */
    int queue(TxStream stream, int count, long now, int phase) throws AfPacketException;

    /**
     * Makes the kernel transmit what {@link #queue} left queued (a TX ring's requested slots); a
     * no-op where queueing sent already.
     *
     * @return false when the kernel pushed back (the caller idles before the next try)
     * @throws AfPacketException when the kernel refuses for good
     */
    boolean flush() throws AfPacketException;

    /**
     * After the last frame: waits until frames still queued have left, until {@code deadline}.
     *
     * @return whether any frame was still queued
     * @throws AfPacketException when the kernel refuses for good
     */
    boolean drain(Clock clock, long deadline, IdleStrategy idle) throws AfPacketException;

    /** @return flushes the kernel refused, each dropping a frame (TX ring); 0 for sendmmsg */
    long refusals();

    /** Closes the socket and unmaps any ring; idempotent, never throws. */
    @Override
    void close();
}
