package io.linerate.core;

import java.util.OptionalDouble;

/**
 * What moving the payload cost in CPU time: netperf's <em>service demand</em>, CPU microseconds per
 * KiB (1024 bytes) of payload. A figure that depends less on how fast the host is than throughput
 * does, and that a regression in per-byte work moves even when the link, not the CPU, limits the
 * rate.
 *
 * @param senderUsPerKiB the sending thread's CPU time per KiB it sent; empty when either is 0 or unknown
 * @param receiverUsPerKiB the receiving thread's CPU time per KiB it received
 * @param threadsUsPerKiB both measuring threads' CPU time per KiB received: the cost of one KiB
 *     across, as linerate's {@code <marker>_cpu_us_per_kb} metric reports it
 * @param processUsPerKiB the whole process's CPU time ({@link ProcessCpu}) per KiB received
 * @param basis which CPU times the figures are made of, in words
 */
public record ServiceDemand(OptionalDouble senderUsPerKiB, OptionalDouble receiverUsPerKiB,
                            OptionalDouble threadsUsPerKiB, OptionalDouble processUsPerKiB, String basis) {
    /**
     * Where both ends run in this process: the kernel work of the two ends mixes, and softirq work
     * may land on either thread or outside both.
     */
    public static final String SAME_PROCESS = "thread CPU time of each end; both ends run in this process, so their "
            + "kernel work mixes and softirq work may be counted on either thread or outside both";

    /** Where the two ends run in two processes (this one and a peer agent's), each on its own host's CPU. */
    public static final String TWO_PROCESSES = "thread CPU time of each end, each in its own process (this one and "
            + "the peer agent's); the threads figure adds CPU time of two hosts";

    /**
     * @param cpuNanos CPU time in ns; negative when unknown
     * @param bytes payload bytes it moved
     * @return {@code (cpuNanos / 1000) / (bytes / 1024)}, µs per KiB; empty when either is 0 or unknown
     */
    public static OptionalDouble usPerKiB(long cpuNanos, long bytes) {
        if (cpuNanos <= 0 || bytes <= 0) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of((cpuNanos / 1e3) / (bytes / 1024.0));
    }

    /**
     * @param r a stream result
     * @return its service demand, per end, both threads, and the whole process, with the basis
     *     that fits where the ends ran
     */
    public static ServiceDemand of(TransferResult r) {
        long threads = r.senderCpuNanos() < 0 || r.receiverCpuNanos() < 0 ? -1 : r.senderCpuNanos() + r.receiverCpuNanos();
        return new ServiceDemand(usPerKiB(r.senderCpuNanos(), r.bytesSent()), usPerKiB(r.receiverCpuNanos(), r.bytesReceived()),
                usPerKiB(threads, r.bytesReceived()), usPerKiB(r.processCpuNanos(), r.bytesReceived()),
                r.spec().endpoint().remoteAddress().isPresent() ? TWO_PROCESSES : SAME_PROCESS);
    }
}
