package io.linerate.testsupport;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reading a child process's output in a test without ever hanging on it: a line within a bound,
 * and the rest thrown away on a daemon thread so the child never blocks on a full pipe.
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
}
