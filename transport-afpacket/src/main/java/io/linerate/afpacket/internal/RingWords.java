package io.linerate.afpacket.internal;

import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * Status words shared with the kernel in a memory-mapped PACKET ring (TPACKET_V2/V3, see
 * {@code linux/if_packet.h}): the kernel publishes a frame or block by writing its status last,
 * so reads pair with an acquire fence and hand-backs with a release fence. Static fences, unlike
 * VarHandle access-mode calls, never link or allocate.
 */
final class RingWords {
    private RingWords() {}

    /** A load with acquire semantics: nothing after it is read before the word the kernel published. */
    static int acquire(ByteBuffer b, int index) {
        int v = b.getInt(index);
        VarHandle.acquireFence();
        return v;
    }

    /** A store with release semantics: everything written before it is visible before the word. */
    static void release(ByteBuffer b, int index, int value) {
        VarHandle.releaseFence();
        b.putInt(index, value);
    }
}
