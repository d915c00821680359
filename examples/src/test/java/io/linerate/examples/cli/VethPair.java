package io.linerate.examples.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** A veth pair on this host for the raw-frame command tests (root): made up, IPv6 off, removed by the caller. */
final class VethPair {
    private static final AtomicInteger NEXT = new AtomicInteger();
    /**
     * Bound on each {@code ip} command, generous: it takes milliseconds, but waits for the kernel's
     * RTNL lock, which another test's namespace teardown can hold for seconds on a loaded host.
     */
    static final Duration COMMAND_BOUND = Duration.ofSeconds(60);

    private VethPair() {}

    /**
     * @param tag a letter that tells the calling test's interfaces apart from another's
     * @return the two interface names, {@code lrt<pid><tag><n>a} and {@code ...b}, both up
     * @throws IOException when {@code ip} fails, runs past its bound or is interrupted; nothing is
     *     left then, not even a pair whose add timed out
     */
    static String[] create(char tag) throws IOException {
        String base = "lrt" + ProcessHandle.current().pid() % 100_000 + tag + NEXT.getAndIncrement();
        String[] v = {base + "a", base + "b"};
        try {
            ip("link", "add", v[0], "type", "veth", "peer", "name", v[1]);
            for (String n : v) {
                Path v6 = Path.of("/proc/sys/net/ipv6/conf", n, "disable_ipv6");
                if (Files.exists(v6)) {
                    Files.writeString(v6, "1\n", StandardCharsets.US_ASCII);
                }
                ip("link", "set", n, "up");
            }
        } catch (IOException | RuntimeException e) {
            try {
                remove(v[0]);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        return v;
    }

    /**
     * Deletes the pair whose first interface is {@code a}, when it exists, also from a thread that
     * was interrupted (a test's timeout): the interrupt is kept for the caller.
     */
    static void remove(String a) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            if (Files.isDirectory(Path.of("/sys/class/net", a))) {
                ip("link", "del", a);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs {@code ip ARGS}, bounded by {@link #COMMAND_BOUND}; past it, or when the wait is
     * interrupted, the command is killed and reaped before this throws.
     *
     * @throws IOException naming the command when it fails
     */
    static void ip(String... args) throws IOException {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "ip";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            if (!p.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS)) {
                reap(p);
                throw new IOException(String.join(" ", cmd) + " did not finish within " + COMMAND_BOUND.toSeconds() + " s");
            }
        } catch (InterruptedException e) {
            reap(p);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted: " + String.join(" ", cmd), e);
        }
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", cmd) + " failed: "
                    + new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    /** Kills a command and waits for it to exit, within {@link #COMMAND_BOUND}; an interrupt is kept for the caller. */
    private static void reap(Process p) {
        p.destroyForcibly();
        boolean interrupted = Thread.interrupted();
        try {
            p.waitFor(COMMAND_BOUND.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            interrupted = true;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
