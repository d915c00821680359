package io.linerate.peers;

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
    /** Runs {@link #leastOf} measures after its first. */
    public static final int MEASURED_RUNS = 3;

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private Allocations() {}

    /** @return bytes this thread has allocated since it started */
    public static long ofThisThread() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }

    /**
     * Runs {@code decode} once to load and instrument what it reaches, then {@value #MEASURED_RUNS}
     * times more, and gives the least any of those runs allocated. A cost paid once (a class loaded
     * or instrumented late, a call site linked, a fuzzer's own bookkeeping) shows in one run, not
     * in each; a decoder that allocates what its input announces allocates it every time.
     *
     * @param decode the decoding to measure, on the calling thread
     * @return the fewest heap bytes one measured run allocated
     */
    public static long leastOf(Runnable decode) {
        decode.run();
        long least = Long.MAX_VALUE;
        for (int i = 0; i < MEASURED_RUNS; i++) {
            long before = ofThisThread();
            decode.run();
            least = Math.min(least, ofThisThread() - before);
        }
        return least;
    }

    /**
     * @param inputBytes the input's length
     * @return the most a decoder may allocate for it: {@link #FIXED_BYTES} + {@link #PER_INPUT_BYTE} per byte
     */
    public static long bound(int inputBytes) {
        return FIXED_BYTES + PER_INPUT_BYTE * inputBytes;
    }
}
