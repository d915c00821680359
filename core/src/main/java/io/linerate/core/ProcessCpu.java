package io.linerate.core;

import java.lang.management.ManagementFactory;

/**
 * The CPU time of this whole process (every thread, user and kernel), as
 * {@code clock_gettime(CLOCK_PROCESS_CPUTIME_ID)} counts it on Linux, read through the JDK's
 * {@code com.sun.management.OperatingSystemMXBean}. Kernel work done for the process in softirq
 * context on another task's time (such as loopback delivery) may be counted elsewhere, which is
 * why results name the figure they use.
 */
public final class ProcessCpu {
    private static final com.sun.management.OperatingSystemMXBean OS =
            ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o ? o : null;

    private ProcessCpu() {}

    /** @return the process's CPU time so far in ns, or -1 when this JVM cannot tell */
    public static long nanos() {
        if (OS == null) {
            return -1;
        }
        long v = OS.getProcessCpuTime();
        return v < 0 ? -1 : v;
    }

    /**
     * @param start a reading of {@link #nanos()}
     * @param end a later reading
     * @return the CPU time between them in ns, or -1 when either is unknown
     */
    public static long between(long start, long end) {
        return start < 0 || end < 0 ? -1 : Math.max(0, end - start);
    }
}
