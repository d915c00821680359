package io.linerate.core.spi;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * How a UDP receive loop waits once its non-blocking socket holds nothing: while datagrams flow
 * (one was read within the last {@value #LINGER_NANOS} ns) it parks {@value #POLL_NANOS} ns on
 * its own timer and then reads again, draining what arrived meanwhile in one go; otherwise it waits
 * on the selector, bounded by the caller's poll, so that the first datagram after a pause is read
 * as soon as it arrives.
 *
 * <p>Why: a loop that sleeps on the selector whenever its socket is empty is woken by the kernel
 * for nearly every datagram at high rates, and each wake-up costs a context switch, the selector's
 * bookkeeping and an empty read. On a host where other processes take the CPU, that per-datagram
 * cost makes the receiver spend more than its share, the scheduler then lets it wait, and the
 * socket buffer (the kernel's default, some 90 datagrams of 1400 bytes) overflows. Polling on a
 * timer while the stream flows reads tens of datagrams per wake-up at 1 Gbit/s instead of one.
 * The price is the read's delay: a datagram is read, and its arrival stamped, at most one poll
 * (plus the kernel's timer slack, 50 µs by default) after it arrived, while datagrams flow.
 *
 * <p>One instance per receive loop, used on that loop's thread only; allocation-free.
 */
public final class DatagramWait {
    /** The park between two reads while datagrams flow, ns. */
    public static final long POLL_NANOS = 50_000L;
    /** How long after the last datagram read the loop keeps polling on its timer, ns. */
    public static final long LINGER_NANOS = 10_000_000L;

    /** Readiness is acted on by reading again; a shared handler keeps the select allocation-free. */
    private static final Consumer<SelectionKey> IGNORE = k -> { };

    private final Selector selector;
    private boolean readSinceWait;
    private long lastReadNanos;
    private boolean everRead;

    /**
     * @param selector a selector the loop's channel is registered with for OP_READ
     */
    public DatagramWait(Selector selector) {
        this.selector = selector;
    }

    /** The loop read a datagram; one field write. */
    public void read() {
        readSinceWait = true;
    }

    /**
     * Waits for the next datagram, as the class says: a park of {@link #POLL_NANOS} while datagrams
     * flow, else the selector for at most {@code maxMillis} ms. Returns early on an interrupt.
     *
     * @param maxMillis the longest wait on the selector, ms (at least 1 is used)
     * @throws IOException when the selector fails
     */
    public void await(long maxMillis) throws IOException {
        if (polling(System.nanoTime())) {
            LockSupport.parkNanos(POLL_NANOS);
        } else {
            selector.select(IGNORE, Math.max(1, maxMillis));
        }
    }

    /**
     * Takes note of the reads since the last wait and tells which wait comes next.
     *
     * @param nowNanos the time of the wait, ns ({@link System#nanoTime()})
     * @return true to park on the timer (a datagram was read less than {@link #LINGER_NANOS} before
     *     {@code nowNanos}); false to wait on the selector (none read yet, or none for that long)
     */
    boolean polling(long nowNanos) {
        if (readSinceWait) {
            readSinceWait = false;
            everRead = true;
            lastReadNanos = nowNanos;
        }
        return everRead && nowNanos - lastReadNanos < LINGER_NANOS;
    }
}
