package io.linerate.core.spi;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The life of a measurement that runs at most once and never after it was closed, safe from any
 * thread: {@link #begin} before the run, {@link #close} once.
 */
public final class RunOnce {
    private final String what;
    private final AtomicBoolean ran = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** @param what the measurement, for the messages: "transfer", "stream", "test" */
    public RunOnce(String what) {
        this.what = what;
    }

    /**
     * Marks the run as begun.
     *
     * @throws IllegalStateException when it was closed, or began before
     */
    public void begin() {
        if (closed.get()) {
            throw new IllegalStateException("the " + what + " is closed");
        }
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("a " + what + " runs once; open a new one");
        }
    }

    /** @return true for the call that closed it, false for every later one: release what it holds then */
    public boolean close() {
        return closed.compareAndSet(false, true);
    }
}
