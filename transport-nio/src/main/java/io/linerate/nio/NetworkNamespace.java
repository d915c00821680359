package io.linerate.nio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A private Linux network namespace made with iproute2 ({@code ip netns add}), removed again by
 * {@link #close()} on every path, and by a shutdown hook if the JVM exits first. Needs
 * CAP_SYS_ADMIN (root); {@link #unavailableReason()} says why it cannot be made.
 */
public final class NetworkNamespace implements AutoCloseable {
    /** Bound on each {@code ip} command. */
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final int CAP_SYS_ADMIN = 21;
    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespace.class);

    private final String name;
    private final Thread cleanup;
    private boolean closed;

    private NetworkNamespace(String name) {
        this.name = name;
        this.cleanup = new Thread(this::delete, "linerate-netns-cleanup");
    }

    /**
     * @return why a namespace cannot be made here (not Linux, no CAP_SYS_ADMIN, no {@code ip}
     *     command), or empty when it can
     */
    public static Optional<String> unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        if (!hasCapability(CAP_SYS_ADMIN)) {
            return Optional.of("making a network namespace needs root (CAP_SYS_ADMIN)");
        }
        if (findIp().isEmpty()) {
            return Optional.of("the ip command (Debian package iproute2) is not installed");
        }
        return Optional.empty();
    }

    /**
     * Makes a namespace and brings its loopback up with the given MTU.
     *
     * @param name namespace name, {@code [A-Za-z0-9_.-]{1,64}}
     * @param loopbackMtu MTU of the namespace's {@code lo}, 1280..65536 (1280 is IPv6's minimum)
     * @return the namespace; close it to remove it
     * @throws IllegalArgumentException for a bad name or MTU
     * @throws IOException if {@code ip} fails; nothing is left behind then
     */
    public static NetworkNamespace create(String name, int loopbackMtu) throws IOException {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("namespace name '" + name + "' is not allowed; allowed: 1..64 of A-Z a-z 0-9 _ . -");
        }
        if (loopbackMtu < 1280 || loopbackMtu > 65536) {
            throw new IllegalArgumentException("loopback MTU " + loopbackMtu + " is out of range; allowed: 1280..65536");
        }
        Optional<String> why = unavailableReason();
        if (why.isPresent()) {
            throw new IOException("cannot make network namespace " + name + ": " + why.get());
        }
        Commands.check(List.of(ip(), "netns", "add", name), COMMAND_TIMEOUT);
        LOG.debug("created network namespace {}", name);
        NetworkNamespace ns = new NetworkNamespace(name);
        Runtime.getRuntime().addShutdownHook(ns.cleanup);
        try {
            Commands.check(List.of(ip(), "-n", name, "link", "set", "lo", "mtu", Integer.toString(loopbackMtu), "up"),
                    COMMAND_TIMEOUT);
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** @return the namespace's name */
    public String name() {
        return name;
    }

    /** @return {@code command} prefixed so that it runs inside this namespace ({@code ip netns exec}) */
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of(ip(), "netns", "exec", name));
        out.addAll(command);
        return out;
    }

    /**
     * Runs a command inside the namespace, copying its output line by line as it comes.
     *
     * @param command program and arguments
     * @param timeout bound on the run; the process is killed past it
     * @param out receives the command's standard output
     * @param err receives the command's standard error
     * @return the command's exit code
     * @throws IOException if it cannot start or runs past the bound
     */
    public int exec(List<String> command, Duration timeout, PrintWriter out, PrintWriter err) throws IOException {
        Process p = new ProcessBuilder(wrap(command)).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
        Thread o = copier(p.getInputStream(), out);
        Thread errCopy = copier(p.getErrorStream(), err);
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                throw new IOException("command in namespace " + name + " did not finish within "
                        + timeout.toSeconds() + " s and was killed");
            }
            o.join(COMMAND_TIMEOUT.toMillis());
            errCopy.join(COMMAND_TIMEOUT.toMillis());
            return p.exitValue();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while waiting for a command in namespace " + name, e);
        }
    }

    private static Thread copier(java.io.InputStream in, PrintWriter to) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (to) {
                        to.println(line);
                        to.flush();
                    }
                }
            } catch (IOException ignored) {
                // the process ended; what it printed so far was copied
            }
        }, "linerate-netns-output");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Removes the namespace ({@code ip netns del}). Idempotent; never throws. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        delete();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down and the hook runs anyway
        }
    }

    private synchronized void delete() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Commands.Outcome o = Commands.run(List.of(ip(), "netns", "del", name), COMMAND_TIMEOUT);
            if (o.exitCode() != 0) {
                LOG.warn("could not remove network namespace {}: {}; remove it with 'ip netns del {}'",
                        name, o.stderr().strip(), name);
            } else {
                LOG.debug("removed network namespace {}", name);
            }
        } catch (IOException e) {
            LOG.warn("could not remove network namespace {}: {}; remove it with 'ip netns del {}'",
                    name, e.getMessage(), name);
        }
    }

    /** @return names of the namespaces {@code ip netns list} shows */
    public static List<String> list() throws IOException {
        String out = Commands.check(List.of(ip(), "netns", "list"), COMMAND_TIMEOUT).stdout();
        List<String> names = new ArrayList<>();
        for (String line : out.split("\n")) {
            String n = line.strip();
            if (!n.isEmpty()) {
                names.add(n.split("\\s+")[0]);
            }
        }
        return names;
    }

    private static String ip() {
        return findIp().orElse("ip");
    }

    private static Optional<String> findIp() {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            Path p = Path.of(dir, "ip");
            if (Files.isExecutable(p)) {
                return Optional.of(p.toString());
            }
        }
        return Optional.empty();
    }

    /** Reads the effective capability set from /proc/self/status. */
    static boolean hasCapability(int bit) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("CapEff:")) {
                    long caps = Long.parseUnsignedLong(line.substring(7).strip(), 16);
                    return (caps & (1L << bit)) != 0;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return false;
        }
        return false;
    }
}
