package io.linerate.examples.cli;

import java.io.PrintWriter;
import java.io.Writer;
import java.util.function.Consumer;

/**
 * A writer that runs {@code before} ahead of each write and tells {@code after} whether the write
 * ended a line, all under one lock: how {@link ProgressLine} erases itself before the command's
 * output and holds off while a line is half written.
 */
final class ErasingWriter extends Writer {
    private final PrintWriter target;
    private final Runnable before;
    private final Consumer<Boolean> after;

    /**
     * @param lock the lock every write holds, the progress line's
     * @param target where the characters go, flushed after each write
     * @param before runs under the lock before each write that is not empty
     * @param after hears under the lock, after each such write, whether it ended with {@code \n}
     */
    ErasingWriter(Object lock, PrintWriter target, Runnable before, Consumer<Boolean> after) {
        super(lock);
        this.target = target;
        this.before = before;
        this.after = after;
    }

    @Override
    public void write(char[] buf, int off, int len) {
        if (len == 0) {
            return;
        }
        synchronized (lock) {
            before.run();
            target.write(buf, off, len);
            target.flush();
            after.accept(buf[off + len - 1] == '\n');
        }
    }

    @Override
    public void flush() {
        target.flush();
    }

    @Override
    public void close() {
        target.flush();
    }
}
