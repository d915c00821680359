package io.linerate.examples.cli;

import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Ctrl-C (SIGINT) while a command measures: the first SIGINT interrupts the thread that installed
 * this, whose measurement then stops within its I/O timeout and returns what it measured so far
 * ({@link io.linerate.core.Measurement#run()}), so that the command can print that partial result
 * and exit 130; a second SIGINT ends the JVM as SIGINT does without this handler (exit 130, after
 * the shutdown hooks). A SIGINT within {@value #SAME_CTRL_C_MILLIS} ms of the first is the same
 * Ctrl-C, not a second: a terminal sends it to the whole foreground process group, so a wrapper
 * that forwards it (such as {@code timeout}) delivers it twice. Installed for the length of a
 * command; {@link #close()} puts the previous handler back. A JVM that started with SIGINT ignored (a job started in the background by a
 * shell without job control, {@code nohup}) keeps ignoring it.
 */
final class SigintStop implements AutoCloseable {
    private static final Signal INT = new Signal("INT");
    /** How soon after the first SIGINT another one is the same Ctrl-C, ms. */
    static final long SAME_CTRL_C_MILLIS = 1000;

    private final Thread target;
    private final AtomicBoolean received = new AtomicBoolean();
    private volatile long firstNanos;
    private final SignalHandler previous;

    private SigintStop(Thread target) {
        this.target = target;
        SignalHandler p;
        try {
            p = Signal.handle(INT, this::handle);
        } catch (IllegalArgumentException e) {
            p = null; // the JVM keeps SIGINT for itself (-Xrs): it ends the process as before
        }
        this.previous = p;
    }

    /** @return the handler, installed for the calling thread until {@link #close()} */
    static SigintStop install() {
        return new SigintStop(Thread.currentThread());
    }

    /** @return whether a SIGINT came since {@link #install()} */
    boolean received() {
        return received.get();
    }

    private void handle(Signal s) {
        if (received.compareAndSet(false, true)) {
            firstNanos = System.nanoTime();
            target.interrupt();
            return;
        }
        if (System.nanoTime() - firstNanos < SAME_CTRL_C_MILLIS * 1_000_000L) {
            return; // the same Ctrl-C, forwarded by a wrapper as well
        }
        try {
            previous.handle(s);
        } catch (RuntimeException e) {
            // the previous handler is the native default, which Java cannot call
            System.exit(Linerate.INTERRUPTED);
        }
    }

    /** Puts the previous handler back; an interrupt this handler gave and nobody took is cleared. */
    @Override
    public void close() {
        if (previous != null) {
            Signal.handle(INT, previous);
        }
        if (received.get() && Thread.currentThread() == target) {
            Thread.interrupted();
        }
    }
}
