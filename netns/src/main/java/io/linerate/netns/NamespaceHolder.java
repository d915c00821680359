package io.linerate.netns;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The process that makes a network namespace (with a mount namespace whose {@code /sys} shows it)
 * and ties its life to this JVM's: it reads a pipe from the JVM until end of file, which comes
 * from {@link #release} or from the kernel when the JVM dies, even by SIGKILL; then it SIGKILLs
 * every other process whose network namespace is its own and exits. It ignores SIGINT, SIGTERM,
 * SIGHUP and SIGQUIT, so that a Ctrl-C to the terminal's process group cannot skip that step.
 * The JVM holds both namespaces by file descriptor, so that {@code nsenter} can enter them through
 * {@code /proc/<jvm pid>/fd/<n>} without depending on the holder's pid.
 */
final class NamespaceHolder {
    private static final Logger LOG = LoggerFactory.getLogger(NamespaceHolder.class);

    /**
     * The holder's shell script. It remounts {@code /sys} as {@code ip netns exec} does, says
     * {@code ready}, waits for end of file on standard input, then kills the namespace's other
     * processes in three passes (a process forked during one pass is caught by the next). Each
     * process's namespace is compared by inode ({@code stat -L} on {@code /proc/PID/ns/net}).
     */
    static final String SCRIPT = String.join("\n",
            "trap '' INT TERM HUP QUIT",
            "umount -l /sys 2>/dev/null",
            "mount -t sysfs -o nosuid,nodev,noexec sysfs /sys || exit 3",
            "echo ready",
            "cat >/dev/null",
            "me=$(stat -L -c %i /proc/$$/ns/net)",
            "for pass in 1 2 3; do",
            "  list=$(stat -L -c '%i %n' /proc/[0-9]*/ns/net 2>/dev/null)",
            "  while read -r ino path; do",
            "    [ \"$ino\" = \"$me\" ] || continue",
            "    pid=${path#/proc/}; pid=${pid%%/*}",
            "    [ \"$pid\" = \"$$\" ] || kill -KILL \"$pid\" 2>/dev/null",
            "  done <<END",
            "$list",
            "END",
            "done",
            "");

    private final Process process;
    private final FileChannel net;
    private final FileChannel mnt;
    private final Path netPath;
    private final Path mntPath;
    private final String netLink;

    private NamespaceHolder(Process process, FileChannel net, FileChannel mnt, Path netPath, Path mntPath, String netLink) {
        this.process = process;
        this.net = net;
        this.mnt = mnt;
        this.netPath = netPath;
        this.mntPath = mntPath;
        this.netLink = netLink;
    }

    /**
     * Starts a holder and waits until its namespaces exist.
     *
     * @param unshare path of util-linux's {@code unshare}
     * @param label the namespace's name in messages
     * @param timeout bound on the wait
     * @throws IOException if the holder fails or is not ready in time; it is killed then
     */
    static NamespaceHolder start(String unshare, String label, Duration timeout) throws IOException {
        Process p = new ProcessBuilder(unshare, "--net", "--mount", "--propagation", "slave", "--",
                "/bin/sh", "-c", SCRIPT, "linerate-netns-holder").start();
        FileChannel net = null;
        FileChannel mnt = null;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> readLine(out)).get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (!"ready".equals(line)) {
                p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
                throw new IOException("cannot make network namespace " + label + ": '" + unshare + " --net --mount' "
                        + (p.isAlive() ? "printed '" + line + "'" : "exited with " + p.exitValue()) + ": "
                        + new String(p.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip());
            }
            Path proc = Path.of("/proc", Long.toString(p.pid()), "ns");
            String netLink = Files.readSymbolicLink(proc.resolve("net")).toString();
            String mntLink = Files.readSymbolicLink(proc.resolve("mnt")).toString();
            net = FileChannel.open(proc.resolve("net"));
            mnt = FileChannel.open(proc.resolve("mnt"));
            // alive after the opens: the pid was still the holder's, so the descriptors are its namespaces
            if (!p.isAlive()) {
                throw new IOException("cannot make network namespace " + label + ": its holder process exited");
            }
            if (netLink.equals(Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString())) {
                throw new IOException("cannot make network namespace " + label + ": '" + unshare
                        + " --net' left its process in this JVM's namespace " + netLink);
            }
            return new NamespaceHolder(p, net, mnt, descriptor(netLink), descriptor(mntLink), netLink);
        } catch (IOException | RuntimeException e) {
            abandon(p, net, mnt);
            throw e;
        } catch (TimeoutException e) {
            abandon(p, net, mnt);
            throw new IOException("cannot make network namespace " + label + ": its holder was not ready within "
                    + timeout.toMillis() + " ms", e);
        } catch (ExecutionException e) {
            abandon(p, net, mnt);
            throw new IOException("cannot make network namespace " + label + ": " + e.getCause().getMessage(), e);
        } catch (InterruptedException e) {
            abandon(p, net, mnt);
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making network namespace " + label, e);
        }
    }

    private static String readLine(BufferedReader r) {
        try {
            return r.readLine();
        } catch (IOException e) {
            return null;
        }
    }

    /** @return {@code /proc/<pid>/fd/<n>} of this JVM's descriptor whose link reads {@code link} */
    private static Path descriptor(String link) throws IOException {
        Path self = Path.of("/proc", Long.toString(ProcessHandle.current().pid()), "fd");
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            Optional<Path> fd = fds.filter(f -> link.equals(readLink(f))).findFirst();
            return self.resolve(fd.orElseThrow(() -> new IOException("this JVM holds no descriptor of " + link))
                    .getFileName().toString());
        }
    }

    private static String readLink(Path p) {
        try {
            return Files.readSymbolicLink(p).toString();
        } catch (IOException | UnsupportedOperationException e) {
            return ""; // closed meanwhile by another thread
        }
    }

    private static void abandon(Process p, FileChannel... channels) {
        p.destroyForcibly();
        closeAll(List.of(channels));
    }

    private static void closeAll(List<FileChannel> channels) {
        for (FileChannel c : channels) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (IOException ignored) {
                // a descriptor of a namespace: nothing was written
            }
        }
    }

    long pid() {
        return process.pid();
    }

    boolean alive() {
        return process.isAlive();
    }

    /** @return the namespace's link text, {@code net:[N]} */
    String netLink() {
        return netLink;
    }

    long inode() {
        return Long.parseLong(netLink.substring(netLink.indexOf('[') + 1, netLink.indexOf(']')));
    }

    Path netPath() {
        return netPath;
    }

    Path mntPath() {
        return mntPath;
    }

    /**
     * Ends the holder: closes its pipe, waits for it to kill what is left in the namespace and exit,
     * and closes this JVM's descriptors. Never throws.
     */
    void release(Duration timeout) {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                LOG.warn("the holder of network namespace {} (process {}) did not exit within {} ms; killed",
                        netLink, process.pid(), timeout.toMillis());
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            closeAll(List.of(net, mnt));
        }
    }
}
