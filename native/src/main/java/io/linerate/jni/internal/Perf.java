package io.linerate.jni.internal;

/**
 * The JNI functions of {@code src/main/c/perf.c}: per-thread counters through
 * {@code perf_event_open(2)}. Constants are those of linux/perf_event.h. Load the library with
 * {@code Jni.LIBRARY.ensureLoaded()} first; close a counter with {@link Jni#close(int)}.
 */
public final class Perf {
    /** {@code PERF_TYPE_HARDWARE}. */
    public static final int TYPE_HARDWARE = 0;
    /** {@code PERF_TYPE_SOFTWARE}. */
    public static final int TYPE_SOFTWARE = 1;
    /** {@code PERF_COUNT_HW_INSTRUCTIONS}, of {@link #TYPE_HARDWARE}. */
    public static final long HW_INSTRUCTIONS = 1;
    /** {@code PERF_COUNT_SW_TASK_CLOCK}, of {@link #TYPE_SOFTWARE}: ns the task ran. */
    public static final long SW_TASK_CLOCK = 1;

    private Perf() {}

    /** Opens a counter on the calling thread: its file descriptor, or -errno. */
    public static native int open(int type, long config);

    /** @return the counter's value, or -errno */
    public static native long read(int fd);
}
