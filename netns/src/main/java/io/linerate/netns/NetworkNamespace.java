package io.linerate.netns;

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
 * A private Linux network namespace that lives no longer than this JVM, even one killed with
 * {@code kill -9}.
 *
 * <p>A holder process ({@code unshare --net --mount}, {@link NamespaceHolder}) makes the namespace
 * and waits on a pipe from this JVM; the JVM holds the namespace by file descriptor. When
 * {@link #close()} closes the pipe, or the JVM dies and the kernel closes it, the holder kills
 * every process still inside the namespace and exits, and the kernel frees the namespace and its
 * interfaces. The namespace has no name in {@code /var/run/netns} (a name would keep it alive), so
 * {@code ip netns list} does not show it; commands enter it with {@code nsenter} through
 * {@link #path()}, in a mount namespace whose {@code /sys} shows the namespace's interfaces, as
 * {@code ip netns exec} does. Needs CAP_SYS_ADMIN (root); {@link #unavailableReason()} says why
 * it cannot be made.
 */
public final class NetworkNamespace implements AutoCloseable {
    /**
     * Bound on each {@code ip} command and on the holder's start, generous: such a command takes
     * milliseconds, but waits for the kernel's RTNL lock, which another namespace's teardown can
     * hold for seconds, and a loaded host starts processes slowly. It bounds a hung command only.
     */
    public static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,64}");
    private static final int CAP_SYS_ADMIN = 21;
    private static final Logger LOG = LoggerFactory.getLogger(NetworkNamespace.class);

    private final String name;
    private final NamespaceHolder holder;
    private final Thread cleanup;
    private boolean closed;

    private NetworkNamespace(String name, NamespaceHolder holder) {
        this.name = name;
        this.holder = holder;
        this.cleanup = new Thread(this::release, "linerate-netns-cleanup");
    }

    /** What a command run inside the namespace printed and returned. */
    public record Result(int exitCode, String stdout, String stderr) {}

    /**
     * @return why a namespace cannot be made here (not Linux, no CAP_SYS_ADMIN, no {@code ip},
     *     {@code unshare} or {@code nsenter} command), or empty when it can
     */
    public static Optional<String> unavailableReason() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return Optional.of("network namespaces need Linux; this is " + System.getProperty("os.name"));
        }
        if (!hasCapability(CAP_SYS_ADMIN)) {
            return Optional.of("making a network namespace needs root (CAP_SYS_ADMIN)");
        }
        if (find("ip").isEmpty()) {
            return Optional.of("the ip command (Debian package iproute2) is not installed");
        }
        for (String tool : List.of("unshare", "nsenter")) {
            if (find(tool).isEmpty()) {
                return Optional.of("the " + tool + " command (Debian package util-linux) is not installed");
            }
        }
        return Optional.empty();
    }

    /**
     * Makes a namespace and brings its loopback up with the given MTU.
     *
     * @param name the namespace's label in messages, {@code [A-Za-z0-9_.-]{1,64}}; the namespace
     *     is not registered under it with {@code ip netns}
     * @param loopbackMtu MTU of the namespace's {@code lo}, 1280..65536 (1280 is IPv6's minimum)
     * @return the namespace; close it to remove it
     * @throws IllegalArgumentException for a bad name or MTU
     * @throws IOException if the namespace cannot be made; nothing is left behind then
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
        StaleNamespaces.removeOnce();
        NetworkNamespace ns = new NetworkNamespace(name, NamespaceHolder.start(tool("unshare"), name, COMMAND_TIMEOUT));
        Runtime.getRuntime().addShutdownHook(ns.cleanup);
        LOG.debug("created network namespace {} ({}, held by process {})", name, ns.holder.netLink(), ns.holder.pid());
        try {
            ns.check(List.of(tool("ip"), "link", "set", "lo", "mtu", Integer.toString(loopbackMtu), "up"));
        } catch (IOException | RuntimeException e) {
            ns.close();
            throw e;
        }
        return ns;
    }

    /** @return the namespace's label */
    public String name() {
        return name;
    }

    /**
     * @return {@code /proc/<this JVM's pid>/fd/<n>}, this JVM's descriptor of the namespace, for
     *     {@code nsenter --net=} or {@code ip link set ... netns}; valid until {@link #close()}
     */
    public Path path() {
        return holder.netPath();
    }

    /** @return pid of the process that holds the namespace and kills what is left in it when this JVM lets go */
    public long holderPid() {
        return holder.pid();
    }

    /** @return the namespace's inode number, as {@code readlink /proc/PID/ns/net} shows it in {@code net:[N]} */
    public long inode() {
        return holder.inode();
    }

    /**
     * @param command program and arguments
     * @return {@code command} prefixed so that it runs inside this namespace ({@code nsenter}), in
     *     this JVM's working directory; valid while the namespace is open
     */
    public List<String> wrap(List<String> command) {
        List<String> out = new ArrayList<>(List.of(tool("nsenter"), "--net=" + holder.netPath(),
                "--mount=" + holder.mntPath(), "--wd=" + System.getProperty("user.dir"), "--"));
        out.addAll(command);
        return out;
    }

    /**
     * Runs a command inside the namespace and collects its output.
     *
     * @param command program and arguments
     * @param timeout bound on the run; the process is killed past it
     * @return exit code, standard output and standard error
     * @throws IOException if it cannot start, runs past the bound, or the namespace is closed
     */
    public Result run(List<String> command, Duration timeout) throws IOException {
        Commands.Outcome o = Commands.run(wrap(openCommand(command)), timeout);
        return new Result(o.exitCode(), o.stdout(), o.stderr());
    }

    /**
     * Like {@link #run}, bounded by {@link #COMMAND_TIMEOUT}, but fails unless the exit code is 0.
     *
     * @param command program and arguments
     * @return exit code 0 and the output
     * @throws IOException if it cannot start, runs past the bound, exits with another code (the
     *     message names the command, this namespace, the code and the command's stderr), or the
     *     namespace is closed
     */
    public Result check(List<String> command) throws IOException {
        Result r = run(command, COMMAND_TIMEOUT);
        if (r.exitCode() != 0) {
            throw new IOException("'" + String.join(" ", command) + "' in network namespace " + name + " exited with "
                    + r.exitCode() + ": " + r.stderr().strip());
        }
        return r;
    }

    /**
     * Starts a command inside the namespace and returns at once; its standard input, output and
     * error are pipes of the returned process (read its output, or it may block when a pipe fills).
     * Closing the handle, or this namespace, kills it.
     *
     * @param command program and arguments
     * @return the running command
     * @throws IOException if it cannot start or the namespace is closed
     */
    public NamespaceProcess start(List<String> command) throws IOException {
        return new NamespaceProcess(new ProcessBuilder(wrap(openCommand(command))).start(), command);
    }

    private synchronized List<String> openCommand(List<String> command) throws IOException {
        if (closed || !holder.alive()) {
            throw new IOException("network namespace " + name + " is " + (closed ? "closed" : "gone: its holder process exited"));
        }
        return List.copyOf(command);
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
        Process p = new ProcessBuilder(wrap(openCommand(command))).redirectInput(ProcessBuilder.Redirect.INHERIT).start();
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

    /**
     * Removes the namespace: every process still inside is killed, the holder exits and this JVM's
     * descriptors are closed, so the kernel frees the namespace and its interfaces. Idempotent;
     * never throws.
     */
    @Override
    public void close() {
        release();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException ignored) {
            // the JVM is already shutting down and the hook runs anyway
        }
    }

    private void release() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        holder.release(COMMAND_TIMEOUT);
        LOG.debug("removed network namespace {}", name);
    }

    /** @return names of the namespaces {@code ip netns list} shows (named ones; this class makes none) */
    public static List<String> list() throws IOException {
        String out = Commands.check(List.of(tool("ip"), "netns", "list"), COMMAND_TIMEOUT).stdout();
        List<String> names = new ArrayList<>();
        for (String line : out.split("\n")) {
            String n = line.strip();
            if (!n.isEmpty()) {
                names.add(n.split("\\s+")[0]);
            }
        }
        return names;
    }

    /**
     * @param name a system tool, such as {@code ip} or {@code tc}
     * @return its absolute path in {@code /usr/sbin}, {@code /sbin}, {@code /usr/bin} or {@code /bin},
     *     or the bare name when none of them has it
     */
    public static String tool(String name) {
        return find(name).orElse(name);
    }

    private static Optional<String> find(String name) {
        for (String dir : List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin")) {
            Path p = Path.of(dir, name);
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
