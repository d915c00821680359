package io.linerate.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A veth pair in the test JVM's network namespace with unique names ({@code lrt<pid><tag><n>a} and
 * {@code ...b}), IPv6 off so the kernel sends nothing of its own on it, both ends up. Closing
 * deletes it (deleting one end deletes both); a set-up that fails, times out or is interrupted
 * deletes what it made before it throws. Needs root and the {@code ip} command (Debian package
 * {@code iproute2}).
 */
public final class VethPair implements AutoCloseable {
    private static final AtomicInteger NEXT = new AtomicInteger();
    /**
     * Bound on each {@code ip} command, generous: it takes milliseconds, but waits for the kernel's
     * RTNL lock, which another test's namespace teardown can hold for seconds on a loaded host.
     */
    public static final Duration COMMAND_BOUND = Duration.ofSeconds(60);
    /** The first end's interface name. */
    public final String a;
    /** The second end's interface name. */
    public final String b;

    private VethPair(String a, String b) {
        this.a = a;
        this.b = b;
    }

    /**
     * Makes a pair tagged {@code x}.
     *
     * @return the pair, both ends up
     * @throws IOException when {@code ip} fails, runs past its bound or is interrupted; nothing is
     *     left then, not even a pair whose add timed out
     */
    public static VethPair create() throws IOException {
        return create('x');
    }

    /**
     * Makes a pair.
     *
     * @param tag a letter that tells the calling test's interfaces apart from another's
     * @return the pair, both ends up
     * @throws IOException when {@code ip} fails, runs past its bound or is interrupted; nothing is
     *     left then, not even a pair whose add timed out
     */
    public static VethPair create(char tag) throws IOException {
        String base = "lrt" + ProcessHandle.current().pid() % 100_000 + tag + NEXT.getAndIncrement();
        VethPair p = new VethPair(base + "a", base + "b");
        try {
            ip("link", "add", p.a, "type", "veth", "peer", "name", p.b);
            for (String n : List.of(p.a, p.b)) {
                Path v6 = Path.of("/proc/sys/net/ipv6/conf", n, "disable_ipv6");
                if (Files.exists(v6)) {
                    Files.writeString(v6, "1\n", StandardCharsets.US_ASCII);
                }
                ip("link", "set", n, "up");
            }
        } catch (IOException | RuntimeException e) {
            // also when the add itself timed out or was interrupted: the kernel may have made the pair by then
            p.removeAfterFailure(e);
            throw e;
        }
        return p;
    }

    /**
     * Sets one end down.
     *
     * @param name {@link #a} or {@link #b}
     * @throws IOException when {@code ip} fails
     */
    public void down(String name) throws IOException {
        ip("link", "set", name, "down");
    }

    /**
     * Runs {@code ip ARGS}, bounded by {@link #COMMAND_BOUND}; a command past it, or one whose wait
     * is interrupted, is killed and reaped before this returns.
     *
     * @param args the arguments of {@code ip}
     * @throws IOException naming the command when it fails
     */
    public static void ip(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process pr = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!pr.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                reap(pr);
                throw new IOException(String.join(" ", cmd) + " did not finish within " + COMMAND_BOUND.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            reap(pr);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        String out = new String(pr.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (pr.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed (" + pr.exitValue() + "): " + out.strip());
        }
    }

    /** Kills a command and waits for it to exit, within {@link #COMMAND_BOUND}; an interrupt is kept for the caller. */
    private static void reap(Process pr) {
        pr.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        try {
            pr.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Deletes the pair after a failed set-up; what fails in the deletion is added to {@code failure}. */
    private void removeAfterFailure(Exception failure) {
        try {
            close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * @param name an interface name
     * @return whether the interface exists in this namespace
     */
    public static boolean exists(String name) {
        return Files.isDirectory(Path.of("/sys/class/net", name));
    }

    /**
     * Deletes the pair, also from a thread that was interrupted (a test's timeout): the interrupt
     * is kept for the caller, but does not cut the deletion short.
     */
    @Override
    public void close() throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            if (exists(a)) {
                ip("link", "del", a);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
