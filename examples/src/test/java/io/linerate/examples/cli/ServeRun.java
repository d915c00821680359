package io.linerate.examples.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code linerate serve ...} run in this JVM on a thread of its own, as a user runs it in a
 * terminal: its output lines are kept as they are printed, a test waits for a line, and
 * {@link #close()} stops the server (as SIGINT would, by interrupting the command's wait) and waits
 * for the command to return. Every wait is bounded.
 */
final class ServeRun implements AutoCloseable {
    private static final Pattern PORT = Pattern.compile(" port (\\d+)");

    private final Lines out = new Lines();
    private final StringWriter err = new StringWriter();
    private final Thread thread;
    private volatile int exit = -1;

    private ServeRun(String... args) {
        thread = new Thread(() -> exit = Linerate.execute(new PrintWriter(out), new PrintWriter(err), args), "serve-under-test");
        thread.setDaemon(true);
        thread.start();
    }

    /**
     * Starts {@code serve args...} and waits (at most 30 s) for the line saying where it listens.
     *
     * @return the running command
     */
    static ServeRun start(String... args) throws InterruptedException {
        ServeRun r = new ServeRun(args);
        r.await(l -> l.startsWith("# linerate "), 30);
        return r;
    }

    /** @return the port the server listens on, from the line saying where it listens */
    int port() {
        String banner = out.lines().stream().filter(l -> l.startsWith("# linerate ")).findFirst().orElseThrow();
        Matcher m = PORT.matcher(banner);
        if (!m.find()) {
            throw new AssertionError("no port in " + banner);
        }
        return Integer.parseInt(m.group(1));
    }

    /**
     * Waits for a line that matches.
     *
     * @throws AssertionError when none came within {@code seconds}, with the output so far
     */
    String await(Predicate<String> match, long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        synchronized (out) {
            while (true) {
                for (String l : out.lines) {
                    if (match.test(l)) {
                        return l;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || !thread.isAlive()) {
                    throw new AssertionError("no such line within " + seconds + " s; out:\n" + String.join("\n", out.lines)
                            + "\nerr:\n" + err);
                }
                TimeUnit.NANOSECONDS.timedWait(out, left);
            }
        }
    }

    /** @return every whole line printed so far */
    List<String> lines() {
        return out.lines();
    }

    /** @return the command's standard error so far */
    String err() {
        return err.toString();
    }

    /** @return the exit code, once {@link #close()} returned */
    int exit() {
        return exit;
    }

    /** Stops the server and waits (at most 30 s) for the command to return. */
    @Override
    public void close() throws InterruptedException {
        thread.interrupt();
        thread.join(30_000);
        if (thread.isAlive()) {
            throw new AssertionError("serve did not stop within 30 s of being interrupted");
        }
    }

    /** A writer that keeps whole lines and wakes waiters at each. */
    private static final class Lines extends Writer {
        private final List<String> lines = new ArrayList<>();
        private final StringBuilder partial = new StringBuilder();

        @Override
        public synchronized void write(char[] c, int off, int len) {
            for (int i = off; i < off + len; i++) {
                if (c[i] == '\n') {
                    lines.add(partial.toString().replace("\r", ""));
                    partial.setLength(0);
                    notifyAll();
                } else {
                    partial.append(c[i]);
                }
            }
        }

        synchronized List<String> lines() {
            return List.copyOf(lines);
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
