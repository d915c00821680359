package io.linerate.examples.cli;

import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A one-line progress report on a terminal's stderr, redrawn about once a second from this
 * process's own live counters file (the same read-only view {@code linerate stat} has), from the
 * second second of a run on. It is drawn only when stderr is a terminal, so piped and redirected
 * output (tests, CI) never holds it. Lines the command writes to stdout or stderr erase it first,
 * through the writers {@link #out()} and {@link #err()}, so the two never share a line.
 *
 * <p>The system property {@code linerate.progress} ({@code auto}, {@code always} or {@code never},
 * default {@code auto}) overrides the terminal check.
 */
final class ProgressLine implements AutoCloseable {
    static final String PROPERTY = "linerate.progress";
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final String ERASE = "\r\033[K";

    private final Object lock = new Object();
    private final PrintWriter terminal;
    private final PrintWriter out;
    private final PrintWriter err;
    private final int width;
    private final Thread thread;
    private boolean shown;
    private boolean midLine;

    private ProgressLine(PrintWriter out, PrintWriter err) {
        this.terminal = err;
        this.out = new PrintWriter(new Guarded(lock, out), true);
        this.err = new PrintWriter(new Guarded(lock, err), true);
        this.width = columns() - 1;
        this.thread = new Thread(this::loop, "linerate-progress");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * @return a running progress line, or empty when stderr is not a terminal (or the property says never)
     */
    static Optional<ProgressLine> startIfTerminal(PrintWriter out, PrintWriter err) {
        String mode = System.getProperty(PROPERTY, "auto").strip().toLowerCase(Locale.ROOT);
        boolean on = switch (mode) {
            case "always" -> true;
            case "never" -> false;
            default -> stderrIsTerminal();
        };
        return on ? Optional.of(new ProgressLine(out, err)) : Optional.empty();
    }

    /** @return stdout through a writer that erases the progress line before each write */
    PrintWriter out() {
        return out;
    }

    /** @return stderr through a writer that erases the progress line before each write */
    PrintWriter err() {
        return err;
    }

    /**
     * @return whether file descriptor 2 is a terminal: on Linux, whether {@code /proc/self/fd/2}
     *     links to a tty device; elsewhere {@code System.console() != null}, the usual proxy
     */
    static boolean stderrIsTerminal() {
        try {
            String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty") || target.equals("/dev/console");
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return System.console() != null;
        }
    }

    private static int columns() {
        try {
            int c = Integer.parseInt(System.getenv().getOrDefault("COLUMNS", "80").strip());
            return c >= 20 ? c : 80;
        } catch (NumberFormatException e) {
            return 80;
        }
    }

    private void loop() {
        long next = System.nanoTime() + PERIOD_NANOS;
        while (!Thread.currentThread().isInterrupted()) {
            long wait = next - System.nanoTime();
            if (wait > 0) {
                try {
                    TimeUnit.NANOSECONDS.sleep(wait);
                } catch (InterruptedException e) {
                    return;
                }
                continue;
            }
            next += PERIOD_NANOS;
            draw();
        }
    }

    private void draw() {
        Optional<Path> file = LiveCounters.process().file();
        String line = "";
        if (file.isPresent()) {
            try {
                Optional<ProcessCounters> p = CountersFileReader.read(file.get());
                line = p.map(pc -> LiveFormat.progressLine(pc, System.currentTimeMillis(), width)).orElse("");
            } catch (IOException e) {
                line = "";
            }
        }
        synchronized (lock) {
            if (midLine) {
                return; // the command is in the middle of a line; draw next time
            }
            if (line.isEmpty()) {
                erase();
            } else {
                terminal.print(ERASE + line);
                terminal.flush();
                shown = true;
            }
        }
    }

    private void erase() {
        if (shown) {
            terminal.print(ERASE);
            terminal.flush();
            shown = false;
        }
    }

    /** Stops redrawing and erases the line. */
    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(2_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (lock) {
            erase();
        }
    }

    /** Erases the progress line before a write, and keeps track of whether a line is half written. */
    private final class Guarded extends Writer {
        private final PrintWriter target;

        Guarded(Object writeLock, PrintWriter target) {
            super(writeLock);
            this.target = target;
        }

        @Override
        public void write(char[] buf, int off, int len) {
            if (len == 0) {
                return;
            }
            synchronized (lock) {
                erase();
                target.write(buf, off, len);
                target.flush();
                midLine = buf[off + len - 1] != '\n';
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
}
