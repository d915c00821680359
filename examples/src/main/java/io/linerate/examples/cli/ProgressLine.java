package io.linerate.examples.cli;

import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A one-line progress report on a terminal's stderr, redrawn about once a second from the second
 * second of a run on: what the command's {@link ProgressView} makes of this process's own live
 * counters file (the same read-only view {@code linerate stat} has) and of what the command told it.
 * It is drawn only when stderr is a terminal, so piped and redirected output (tests, CI) never holds
 * it. Each drawing overwrites the last in place ({@code \r}, then ANSI "erase in line",
 * {@code ESC [ K}). Lines the command writes to stdout or stderr through {@link #out()} and
 * {@link #err()}, and log lines on {@code System.err}, erase it first, so the two never share a
 * line; closing erases it, and so does a shutdown hook when the JVM ends on a signal (Ctrl-C).
 *
 * <p>The system property {@code linerate.progress} ({@code auto}, {@code always} or {@code never},
 * default {@code auto}) overrides the terminal check.
 */
final class ProgressLine implements AutoCloseable {
    static final String PROPERTY = "linerate.progress";
    /** Carriage return, then ANSI (ECMA-48) "erase in line" to its end. */
    static final String ERASE = "\r\033[K";
    private static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final Object lock = new Object();
    private final PrintWriter terminal;
    private final PrintWriter out;
    private final PrintWriter err;
    private final Supplier<ProgressView> view;
    private final int width;
    private Thread thread;
    private Thread hook;
    private PrintStream systemErr;
    private boolean shown;
    private boolean midLine;
    private boolean closed;

    /**
     * A line that draws only when told to ({@link #draw(long)}); {@link #start(PrintWriter, PrintWriter,
     * Supplier, boolean)} also redraws it from a thread of its own.
     *
     * @param out stdout
     * @param err stderr, the terminal the line is drawn on
     * @param view what the line says, asked at each drawing
     * @param width the most characters the line may have
     */
    ProgressLine(PrintWriter out, PrintWriter err, Supplier<ProgressView> view, int width) {
        this.terminal = err;
        this.out = new PrintWriter(new ErasingWriter(lock, out, this::erase, this::afterWrite), true);
        this.err = new PrintWriter(new ErasingWriter(lock, err, this::erase, this::afterWrite), true);
        this.view = view;
        this.width = width;
    }

    /**
     * @param view what the line says, asked at each drawing
     * @return a running progress line, or empty when stderr is not a terminal (or the property says never)
     */
    static Optional<ProgressLine> startIfTerminal(PrintWriter out, PrintWriter err, Supplier<ProgressView> view) {
        return start(out, err, view, stderrIsTerminal());
    }

    /**
     * @param terminal whether stderr is a terminal
     * @return a running progress line, or empty when {@link #shown(String, boolean)} says no
     */
    static Optional<ProgressLine> start(PrintWriter out, PrintWriter err, Supplier<ProgressView> view, boolean terminal) {
        if (!shown(System.getProperty(PROPERTY, "auto"), terminal)) {
            return Optional.empty();
        }
        ProgressLine line = new ProgressLine(out, err, view, columns() - 1);
        line.run();
        return Optional.of(line);
    }

    /**
     * @param mode the property {@value #PROPERTY}: {@code always}, {@code never}, anything else is {@code auto}
     * @param terminal whether stderr is a terminal
     * @return whether a progress line is drawn
     */
    static boolean shown(String mode, boolean terminal) {
        return switch (mode.strip().toLowerCase(Locale.ROOT)) {
            case "always" -> true;
            case "never" -> false;
            default -> terminal;
        };
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

    /** Starts the redrawing thread, the shutdown hook that erases, and the erasing of log lines on {@code System.err}. */
    private void run() {
        systemErr = System.err;
        System.setErr(new PrintStream(new ErasingStream(lock, systemErr, this::erase, this::afterWrite), true));
        hook = new Thread(this::close, "linerate-progress-erase");
        Runtime.getRuntime().addShutdownHook(hook);
        thread = new Thread(this::loop, "linerate-progress");
        thread.setDaemon(true);
        thread.start();
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
            draw(System.currentTimeMillis());
        }
    }

    /**
     * Draws the line once, from the live counters as they are now; erases it when the view has
     * nothing to say; leaves it when the command is in the middle of writing a line.
     *
     * @param nowMillis the wall clock, ms since the epoch
     */
    void draw(long nowMillis) {
        ProcessCounters counters = ProgressView.noCounters(nowMillis);
        Optional<Path> file = LiveCounters.process().file();
        if (file.isPresent()) {
            try {
                counters = CountersFileReader.read(file.get()).orElse(counters);
            } catch (IOException e) {
                // the file went between the look and the read: the run ended; draw what the command knows
            }
        }
        String line = LiveFormat.cut(view.get().line(counters, nowMillis), width);
        synchronized (lock) {
            if (midLine || closed) {
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

    private void afterWrite(boolean endsLine) {
        midLine = !endsLine;
    }

    /** Stops redrawing and erases the line; idempotent. */
    @Override
    public void close() {
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(2_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (lock) {
            erase();
            closed = true;
        }
        if (hook != null && Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook erases, as this did
            }
            System.setErr(systemErr);
        }
    }
}
