package io.linerate.examples.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A real {@code iperf3 -s -1} (Debian package {@code iperf3}) on 127.0.0.1 at a free port, a child
 * process of the test; close kills it. Where iperf3 is not installed the test is skipped off CI,
 * and fails under CI ({@code CI} set), whose {@code .ci/run} installs it.
 */
final class RealIperf3Server implements AutoCloseable {
    final int port;
    private final Process process;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(10_000);

    private RealIperf3Server(int port, Process process) {
        this.port = port;
        this.process = process;
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    lines.offer(l);
                }
            } catch (IOException ignored) {
                // the process ended
            }
        }, "iperf3-server-output");
        t.setDaemon(true);
        t.start();
    }

    /** @return the iperf3 binary; aborts the test off CI, fails it under CI, when it is not on PATH */
    static String binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(File.pathSeparator)) {
            File f = new File(dir, "iperf3");
            if (f.canExecute()) {
                return f.getPath();
            }
        }
        String why = "iperf3 is not installed (Debian package iperf3)";
        if (System.getenv("CI") != null) {
            Assertions.fail(why + "; CI must install it: .ci/run does");
        }
        Assumptions.abort("skipped: " + why);
        return null;
    }

    /** Starts a one-off server on 127.0.0.1 and waits, at most 60 s, until it says it listens. */
    static RealIperf3Server start() throws Exception {
        String bin = binary();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb = new ProcessBuilder(bin, "-s", "-1", "-p", Integer.toString(port), "-B", "127.0.0.1", "--forceflush");
        RealIperf3Server srv = new RealIperf3Server(port, pb.redirectErrorStream(true).start());
        try {
            srv.await("Server listening");
        } catch (Exception | Error e) {
            srv.close();
            throw e;
        }
        return srv;
    }

    private void await(String text) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS);
            if (l != null && l.contains(text)) {
                return;
            }
            if (l == null && !process.isAlive() && lines.isEmpty()) {
                throw new IllegalStateException("iperf3 -s exited with " + process.exitValue() + " before printing '" + text + "'");
            }
        }
        throw new IllegalStateException("iperf3 -s printed no '" + text + "' within 60 s");
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }
}
