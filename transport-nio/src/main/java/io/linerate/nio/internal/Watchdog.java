package io.linerate.nio.internal;

import java.io.IOException;
import java.nio.channels.Channel;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Bounds blocking operations, which Java channels cannot time out: the owner arms a deadline
 * before each operation and disarms it after; a daemon thread closes the channels when an armed
 * deadline passes, which makes the blocked call throw. Arming and disarming are two volatile
 * writes, allocation-free. The overrun is noticed within {@link #checkNanos()} of the deadline.
 */
final class Watchdog implements AutoCloseable {
    private static final long DISARMED = Long.MIN_VALUE;

    private final List<? extends Channel> channels;
    private final long checkNanos;
    private final long timeoutNanos;
    private final Thread thread;
    private volatile long deadline = DISARMED;
    private volatile boolean fired;
    private volatile boolean closed;

    /**
     * @param name thread name
     * @param channels closed when a deadline passes
     * @param timeoutNanos the operation timeout, for the check interval (a tenth of it, 1..10 ms)
     */
    Watchdog(String name, List<? extends Channel> channels, long timeoutNanos) {
        this.channels = List.copyOf(channels);
        this.checkNanos = Math.max(1_000_000L, Math.min(10_000_000L, timeoutNanos / 10));
        this.timeoutNanos = timeoutNanos;
        this.thread = new Thread(this::watch, name);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    long checkNanos() {
        return checkNanos;
    }

    /** @param deadlineNanos {@link System#nanoTime()} reading after which the channels are closed */
    void arm(long deadlineNanos) {
        deadline = deadlineNanos;
    }

    void disarm() {
        deadline = DISARMED;
    }

    /** @return whether the watchdog closed the channels */
    boolean fired() {
        return fired;
    }

    private void watch() {
        while (!closed) {
            long d = deadline;
            if (d != DISARMED && System.nanoTime() - d > 0) {
                fired = true;
                for (Channel c : channels) {
                    try {
                        c.close();
                    } catch (IOException ignored) {
                        // closing is all that is wanted; the owner reports the timeout
                    }
                }
                return;
            }
            LockSupport.parkNanos(this, checkNanos);
        }
    }

    /**
     * Stops the thread and waits for it, bounded by the operation timeout (at least 100 ms): the
     * thread ends as soon as it runs, which on a loaded host can take longer than a check interval.
     */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        try {
            thread.join(Math.max(100, timeoutNanos / 1_000_000L));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
