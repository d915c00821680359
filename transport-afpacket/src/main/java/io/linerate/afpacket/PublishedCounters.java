package io.linerate.afpacket;

import org.agrona.BitUtil;
import org.agrona.BufferUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Counters one thread publishes for others to read while it runs, each an ordered store
 * ({@link UnsafeBuffer#putLongRelease}) read with {@link UnsafeBuffer#getLongVolatile}; nothing
 * allocates, locks or makes a system call. Each instance is its own block of memory, aligned to
 * and sized in whole pairs of cache lines ({@link BitUtil#CACHE_LINE_LENGTH}; pairs, since a core
 * may fetch the neighbouring line too), so that the sending thread's counters and the receiving
 * thread's never share a cache line: a write by one never invalidates the line the other writes.
 */
final class PublishedCounters {
    /** Alignment and granule of every block, bytes: two cache lines. */
    static final int GRANULE = 2 * BitUtil.CACHE_LINE_LENGTH;

    private final UnsafeBuffer buffer;
    private final int count;

    /** @param count how many counters, each starting at 0 */
    PublishedCounters(int count) {
        this.count = count;
        int bytes = BitUtil.align(Math.max(1, count) * Long.BYTES, GRANULE);
        this.buffer = new UnsafeBuffer(BufferUtil.allocateDirectAligned(bytes, GRANULE));
    }

    /** Publishes {@code value} as counter {@code i} (an ordered store); its writer only. */
    void set(int i, long value) {
        buffer.putLongRelease(i * Long.BYTES, value);
    }

    /** @return counter {@code i} as last published; any thread */
    long get(int i) {
        return buffer.getLongVolatile(i * Long.BYTES);
    }

    /** @return how many counters */
    int count() {
        return count;
    }

    /** @return the address of the first byte of the block */
    long address() {
        return buffer.addressOffset();
    }

    /** @return the length of the block, bytes: a multiple of {@link #GRANULE} */
    int length() {
        return buffer.capacity();
    }
}
