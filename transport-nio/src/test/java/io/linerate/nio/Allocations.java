package io.linerate.nio;

import java.lang.management.ManagementFactory;

/**
 * Heap bytes the calling thread has allocated, for fuzz targets that must show a decoder's
 * allocation is bounded by its input rather than by a length or count the input announces.
 */
public final class Allocations {
    /**
     * What a decoder may allocate beyond its input's share, bytes (4 MiB): Jackson's buffers, a few
     * exceptions with their stack traces. An announced length of 2^31, or even of 1 MiB per message
     * of a short input, would be far over it.
     */
    public static final long FIXED_BYTES = 4L << 20;
    /** What a decoder may allocate per input byte (a JSON tree of one-character values costs tens). */
    public static final long PER_INPUT_BYTE = 256;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {}

    /** @return bytes this thread has allocated since it started */
    public static long ofThisThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * @param inputBytes the input's length
     * @return the most a decoder may allocate for it: {@link #FIXED_BYTES} + {@link #PER_INPUT_BYTE} per byte
     */
    public static long bound(int inputBytes) {
        return FIXED_BYTES + PER_INPUT_BYTE * inputBytes;
    }
}
