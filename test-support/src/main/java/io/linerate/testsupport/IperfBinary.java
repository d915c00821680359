package io.linerate.testsupport;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A real iperf 2 process ({@code iperf}, Debian package {@code iperf}) on 127.0.0.1, a child of
 * the test; close kills it. A test checks first that iperf is installed
 * ({@link PeerTool#require PeerTool.require("iperf", "iperf")}).
 */
public final class IperfBinary implements AutoCloseable {
    private final Process process;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(10_000);
    private final Thread reader;

    private IperfBinary(Process process) {
        this.process = process;
        this.reader = ChildOutput.collectLines(process.getInputStream(), lines, "iperf2-output");
    }

    /** @return the path of the iperf (2) binary, or null when it is not installed */
    public static String binary() {
        return PeerTool.onPath("iperf");
    }

    /**
     * @return a port free for both TCP and UDP just now
     * @throws IOException if no port can be bound
     */
    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    /**
     * Runs iperf with {@code args}, its output line-buffered (stdbuf) so lines arrive as they are printed.
     *
     * @param args iperf's arguments, such as {@code -c 127.0.0.1 -p 5001}
     * @return the running process
     * @throws IOException if it cannot start
     */
    public static IperfBinary run(List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of("stdbuf", "-oL", binary()));
        cmd.addAll(args);
        return new IperfBinary(new ProcessBuilder(cmd).redirectErrorStream(true).start());
    }

    /**
     * Starts {@code iperf -s [-u] -y C} on 127.0.0.1 and waits (at most 60 s: a loaded host starts
     * processes slowly) until its port is bound.
     *
     * @param port the port to listen on, 1..65535
     * @param udp whether it serves UDP ({@code -u}) rather than TCP
     * @return the listening server
     * @throws Exception if it cannot start or binds nothing within 60 s
     */
    public static IperfBinary server(int port, boolean udp) throws Exception {
        List<String> args = new ArrayList<>(List.of("-s", "-y", "C", "-B", "127.0.0.1", "-p", Integer.toString(port)));
        if (udp) {
            args.add("-u");
        }
        IperfBinary b = run(args);
        String hexPort = String.format(":%04X ", port);
        Path table = Path.of(udp ? "/proc/net/udp" : "/proc/net/tcp");
        long until = System.nanoTime() + 60_000_000_000L;
        while (Files.readAllLines(table).stream().noneMatch(l -> l.contains("0100007F" + hexPort))) {
            if (System.nanoTime() > until || !b.process.isAlive()) {
                b.close();
                throw new IllegalStateException("iperf -s did not bind 127.0.0.1 port " + port + " within 60 s");
            }
            Thread.sleep(20);
        }
        return b;
    }

    /**
     * @param text what the line contains
     * @return the next output line containing {@code text}, waiting at most 60 s
     * @throws InterruptedException if interrupted while waiting
     */
    public String await(String text) throws InterruptedException {
        long until = System.nanoTime() + 60_000_000_000L;
        while (true) {
            long left = until - System.nanoTime();
            String l = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (l == null) {
                throw new IllegalStateException("iperf printed no line with '" + text + "' within 60 s");
            }
            if (l.contains(text)) {
                return l;
            }
        }
    }

    /**
     * @return its exit code, waiting at most 60 s for it to end and 30 s more for its last lines to be read
     * @throws InterruptedException if interrupted while waiting
     */
    public int waitFor() throws InterruptedException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("iperf did not end within 60 s");
        }
        // the process may end before the reader has taken its last lines: output() must hold them all
        reader.join(30_000);
        if (reader.isAlive()) {
            throw new IllegalStateException("iperf's output was not read to its end within 30 s of its exit");
        }
        return process.exitValue();
    }

    /** @return every line printed so far */
    public List<String> output() {
        return List.copyOf(lines);
    }

    /** Stops the process (SIGTERM, then SIGKILL after 5 s) and waits for it to exit. */
    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        }
    }
}
