package io.linerate.testsupport;

import java.net.ServerSocket;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real {@code iperf3 -s} (Debian package {@code iperf3}) on 127.0.0.1 at a free port, a child
 * process of the test; close kills it. A test checks first that iperf3 is installed
 * ({@link PeerTool#require PeerTool.require("iperf3", "iperf3")}).
 */
public final class Iperf3Server implements AutoCloseable {
    /** The server's port. */
    public final int port;
    private final Process process;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(10_000);

    private Iperf3Server(int port, Process process) {
        this.port = port;
        this.process = process;
        ChildOutput.collectLines(process.getInputStream(), lines, "iperf3-server-output");
    }

    /** @return the path of the iperf3 binary, or null when it is not installed */
    public static String binary() {
        return PeerTool.onPath("iperf3");
    }

    /**
     * Starts a server and waits, at most 60 s, until it says it listens.
     *
     * @param oneOff whether it serves one test and exits ({@code -1})
     * @return the listening server; close it to kill it
     * @throws Exception if it cannot start, exits early or prints nothing within 60 s
     */
    public static Iperf3Server start(boolean oneOff) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ProcessBuilder pb = oneOff
                ? new ProcessBuilder(binary(), "-s", "-1", "-p", Integer.toString(port), "-B", "127.0.0.1", "--forceflush")
                : new ProcessBuilder(binary(), "-s", "-p", Integer.toString(port), "-B", "127.0.0.1", "--forceflush");
        Iperf3Server srv = new Iperf3Server(port, pb.redirectErrorStream(true).start());
        try {
            srv.await("Server listening");
        } catch (Exception | Error e) {
            srv.kill();
            throw e;
        }
        return srv;
    }

    /**
     * Waits at most 60 s (a loaded host starts processes slowly) for an output line containing {@code text}.
     *
     * @param text what the line contains
     * @throws Exception if the server exits first or prints no such line within 60 s
     */
    public void await(String text) throws Exception {
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

    /**
     * Kills the server (SIGKILL), as a crashed peer, and waits at most 60 s for it to exit.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(60, TimeUnit.SECONDS);
    }

    /** Kills the server and waits at most 60 s for it to exit. */
    @Override
    public void close() throws InterruptedException {
        kill();
    }
}
