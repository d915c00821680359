package io.linerate.jni.internal;

/**
 * The JNI functions of {@code src/main/c/affinity.c}: the calling thread's CPU set through
 * {@code sched_setaffinity(2)} and {@code sched_getaffinity(2)}, as 64-bit words (CPU n at bit
 * n % 64 of word n / 64). Load the library with {@code Jni.LIBRARY.ensureLoaded()} first.
 */
public final class Affinity {
    /** Words of a whole CPU set: glibc's {@code CPU_SETSIZE} (1024) / 64. */
    public static final int WORDS = 16;

    private Affinity() {}

    /** Sets the calling thread's CPU set: 0 or -errno. */
    public static native int set(long[] mask);

    /** Writes the calling thread's CPU set to {@code out} ({@link #WORDS} long): the words written, or -errno. */
    public static native int get(long[] out);
}
