package io.linerate.core.spi.engine;

import io.linerate.core.TransferException;
import io.linerate.core.spi.cost.CpuCounters;
import io.linerate.core.spi.cost.CpuEvent;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.core.spi.latency.Pinning;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.OptionalInt;
import java.util.concurrent.locks.LockSupport;

/**
 * One loop of a {@link StreamEngine} on its own daemon thread: records the thread's CPU time and
 * its failure, and wakes the monitor thread when it ends.
 */
final class EngineWorker {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.ThreadMXBean ALLOCATION =
            THREADS instanceof com.sun.management.ThreadMXBean m && m.isThreadAllocatedMemorySupported() ? m : null;

    /** A loop body that may fail with an I/O error. */
    @FunctionalInterface
    interface IoRunnable {
        void run() throws IOException;
    }

    private final Thread thread;
    private volatile Throwable failure;
    private volatile boolean done;
    private volatile long cpuNanos;
    private volatile long instructions = -1;
    private volatile String instructionsUnavailable = CpuCounters.NO_PROVIDER;
    private volatile Thread monitor;
    private final java.util.concurrent.CountDownLatch running = new java.util.concurrent.CountDownLatch(1);

    EngineWorker(String name, IoRunnable body) {
        this(name, "", OptionalInt.empty(), body);
    }

    /**
     * @param end which end the thread is, for a message ({@code client} or {@code server})
     * @param cpu the CPU to pin the thread to before its loop ({@link Pinning}, checked beforehand
     *     with {@link ThreadAffinity#requirePinnable}); empty to leave it unpinned
     */
    EngineWorker(String name, String end, OptionalInt cpu, IoRunnable body) {
        // the first counter a JVM opens loads its provider's native library: here, while the
        // measurement sets up, not on the measuring thread inside its window
        CpuCounters.prepare();
        this.thread = new Thread(() -> {
            CpuCounters.Opened counter = CpuCounters.open(CpuEvent.INSTRUCTIONS);
            instructionsUnavailable = counter.unavailable();
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            Pinning pin = null;
            try {
                pin = Pinning.of(end, cpu);
                checkReadBack(end, cpu, pin);
                running.countDown();
                body.run();
            } catch (Throwable e) {
                failure = e;
            } finally {
                running.countDown();
                if (pin != null) {
                    pin.close();
                }
                cpuNanos = THREADS.getCurrentThreadCpuTime() - cpu0;
                if (counter.counter() != null) {
                    try {
                        instructions = counter.counter().read();
                    } catch (RuntimeException e) {
                        instructionsUnavailable = e.getMessage();
                    } finally {
                        counter.counter().close();
                    }
                }
                done = true;
                LockSupport.unpark(monitor);
            }
        }, name);
        this.thread.setDaemon(true);
    }

    /** The kernel's account of the pinned thread's CPU set must be the one CPU asked for. */
    private static void checkReadBack(String end, OptionalInt cpu, Pinning pin) throws TransferException {
        if (cpu.isPresent() && pin.readBack().isPresent() && !pin.readBack().get().equals(Integer.toString(cpu.getAsInt()))) {
            throw new TransferException("the " + end + "'s thread was pinned to CPU " + cpu.getAsInt()
                    + " but the kernel reports Cpus_allowed_list " + pin.readBack().get(), null);
        }
    }

    void start(Thread monitorThread) {
        this.monitor = monitorThread;
        thread.start();
    }

    /**
     * @param timeoutNanos the longest to wait, ns
     * @return whether the thread has entered its loop, waiting at most {@code timeoutNanos}
     */
    boolean awaitRunning(long timeoutNanos) {
        try {
            return running.await(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return running.getCount() == 0;
        }
    }

    boolean done() {
        return done;
    }

    /** @return heap bytes the thread allocated so far, -1 when unknown or the thread ended */
    long allocatedBytes() {
        return ALLOCATION == null || done || !thread.isAlive() ? -1 : ALLOCATION.getThreadAllocatedBytes(thread.getId());
    }

    /** @return CPU time of the thread in ns, once it ended */
    long cpuNanos() {
        return cpuNanos;
    }

    /** @return instructions the thread retired, user and kernel, once it ended; -1 when not counted */
    long instructions() {
        return instructions;
    }

    /** @return why the thread's instructions were not counted; null when they were */
    String instructionsUnavailable() {
        return instructionsUnavailable;
    }

    Throwable failure() {
        return failure;
    }

    /**
     * Waits for the thread to end, at most {@code timeoutNanos}, through interrupts: a stop must
     * not be cut short by the interrupt that asked for it. An interrupt met here is kept for the caller.
     *
     * @return whether the thread has ended
     */
    boolean awaitDone(long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        boolean interrupted = false;
        long left = timeoutNanos;
        while (!done && left > 0) {
            try {
                thread.join(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException e) {
                interrupted = true;
            }
            left = deadline - System.nanoTime();
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return done;
    }
}
