package io.linerate.afpacket.internal;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * Status words shared with the kernel in a memory-mapped PACKET ring (TPACKET_V2/V3, see
 * {@code linux/if_packet.h}): the kernel publishes a frame or block by writing its status last,
 * so reads have acquire semantics and hand-backs release semantics. Agrona's
 * {@link UnsafeBuffer#getIntAcquire} and {@link UnsafeBuffer#putIntRelease} are plain
 * {@code Unsafe} intrinsics: they never link or allocate.
 */
final class RingWords {
    private RingWords() {}

    /** A load with acquire semantics: nothing after it is read before the word the kernel published. */
    static int acquire(UnsafeBuffer ring, int index) {
        return ring.getIntAcquire(index);
    }

    /** A store with release semantics: everything written before it is visible before the word. */
    static void release(UnsafeBuffer ring, int index, int value) {
        ring.putIntRelease(index, value);
    }
}
