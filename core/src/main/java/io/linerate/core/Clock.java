package io.linerate.core;

/**
 * The time source of every measurement: a monotonic nanosecond counter with an arbitrary origin.
 *
 * <p>Readings are only meaningful as differences between two readings of the same clock. Every
 * rate in linerate is {@code Δcount / Δt} where {@code t} is read from a clock right after the
 * counters were read (DESIGN rule 1).
 */
@FunctionalInterface
public interface Clock {

    /** @return the current reading in nanoseconds; only differences are meaningful */
    long nanoTime();

    /** @return the JVM's monotonic clock, {@link System#nanoTime()} */
    static Clock system() {
        return SystemClock.INSTANCE;
    }

    /**
     * @return the CPU time consumed by the calling thread, in nanoseconds, for cost figures that do
     *     not depend on how fast the host is (netperf's "service demand")
     * @throws UnsupportedOperationException if the JVM does not measure thread CPU time
     */
    static Clock currentThreadCpu() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (!mx.isCurrentThreadCpuTimeSupported()) {
            throw new UnsupportedOperationException("this JVM does not measure thread CPU time");
        }
        return mx::getCurrentThreadCpuTime;
    }
}

/** The JVM's monotonic clock. */
enum SystemClock implements Clock {
    INSTANCE;

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }
}
