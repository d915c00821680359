package io.linerate.examples.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.function.Consumer;

/**
 * The byte stream twin of {@link ErasingWriter}, for {@code System.err} (where log lines go) while a
 * {@link ProgressLine} is drawn.
 */
final class ErasingStream extends OutputStream {
    private final Object lock;
    private final PrintStream target;
    private final Runnable before;
    private final Consumer<Boolean> after;

    /** As {@link ErasingWriter#ErasingWriter(Object, java.io.PrintWriter, Runnable, Consumer)}. */
    ErasingStream(Object lock, PrintStream target, Runnable before, Consumer<Boolean> after) {
        this.lock = lock;
        this.target = target;
        this.before = before;
        this.after = after;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        if (len == 0) {
            return;
        }
        synchronized (lock) {
            before.run();
            target.write(b, off, len);
            target.flush();
            after.accept(b[off + len - 1] == '\n');
        }
    }

    @Override
    public void flush() {
        target.flush();
    }
}
