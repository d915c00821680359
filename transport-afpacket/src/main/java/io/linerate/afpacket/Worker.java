package io.linerate.afpacket;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A thread of a raw run (the sender's or the receiver's loop) as a resource: closing it asks the
 * loop to stop and waits for it, bounded. Memory the loop reads (a mapped ring) is closed through
 * {@link #guard}: only once the thread has ended, since unmapping under a running reader would
 * crash the JVM, and a thread that does not end (it cannot, short of a kernel that never answers)
 * keeps its memory mapped, with a warning.
 */
final class Worker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    /** How long {@link #close()} waits for a loop asked to stop. */
    static final long STOP_WAIT_MILLIS = 5_000;

    private final String name;
    private Thread thread;
    private Runnable stopper = () -> { };

    Worker(String name) {
        this.name = name;
    }

    /** Starts {@code loop} on a daemon thread; {@code stopper} asks it to stop. */
    void start(Runnable loop, Runnable stopper) {
        this.stopper = stopper;
        Thread t = new Thread(loop, name);
        t.setDaemon(true);
        thread = t;
        t.start();
    }

    /** @return whether the thread was started and has not ended */
    boolean running() {
        Thread t = thread;
        return t != null && t.isAlive();
    }

    /** Waits up to {@code millis} for the thread to end; an interrupt ends the wait and is kept. */
    void join(long millis) {
        Thread t = thread;
        if (t == null) {
            return;
        }
        try {
            t.join(Math.max(1, millis));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Asks the loop to stop. */
    void requestStop() {
        stopper.run();
    }

    /** @return a resource that closes {@code used} only when this worker's thread is not running */
    AutoCloseable guard(AutoCloseable used) {
        return () -> {
            if (running()) {
                LOG.warn("{} did not end within {} ms; its rings and sockets stay open", name, STOP_WAIT_MILLIS);
                return;
            }
            used.close();
        };
    }

    /** Asks the loop to stop and waits for it, at most {@value #STOP_WAIT_MILLIS} ms. */
    @Override
    public void close() {
        if (running()) {
            requestStop();
            join(STOP_WAIT_MILLIS);
        }
    }
}
