package io.linerate.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reading a child process's output in a test without ever hanging on it: a line within a bound,
 * every line into a queue, or the rest thrown away, on daemon threads so the child never blocks on
 * a full pipe.
 */
public final class ChildOutput {
    private ChildOutput() {}

    /**
     * Reads one line, waiting at most {@code bound}.
     *
     * @param reader the child's output
     * @param bound the longest wait
     * @return the line, or {@code null} at end of output (or when reading fails: the child is gone)
     * @throws TimeoutException if no whole line came within the bound
     * @throws InterruptedException if interrupted while waiting
     */
    public static String lineWithin(BufferedReader reader, Duration bound) throws TimeoutException, InterruptedException {
        try {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return reader.readLine();
                } catch (IOException e) {
                    return null;
                }
            }).get(bound.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw new IllegalStateException("reading a line failed", e.getCause());
        }
    }

    /**
     * Reads a pipe to its end on a daemon thread named {@code drain}, discarding what comes.
     *
     * @param in the child's standard output or error
     */
    public static void drain(InputStream in) {
        Thread t = new Thread(() -> {
            try {
                in.transferTo(OutputStream.nullOutputStream());
            } catch (IOException ignored) {
                // the child ended
            }
        }, "drain");
        t.setDaemon(true);
        t.start();
    }

    /**
     * Reads a pipe line by line (UTF-8) to its end on a daemon thread, offering each line to the
     * queue; a line that finds the queue full is dropped.
     *
     * @param in the child's standard output or error
     * @param into where the lines go
     * @param threadName the reading thread's name
     * @return the started thread
     */
    public static Thread collectLines(InputStream in, BlockingQueue<String> into, String threadName) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    into.offer(l);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, threadName);
        t.setDaemon(true);
        t.start();
        return t;
    }
}
