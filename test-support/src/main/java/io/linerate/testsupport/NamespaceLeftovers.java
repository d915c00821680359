package io.linerate.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * What a network namespace leaves behind, read from {@code /proc}: the processes still inside it
 * and the descriptors this JVM still holds on it. The kernel frees a namespace, with its
 * interfaces, once no process is inside and no descriptor holds it, so a test that finds neither
 * has shown that nothing is left. A namespace is named by its inode number, as
 * {@code readlink /proc/PID/ns/net} prints it in {@code net:[N]}. Linux only.
 */
public final class NamespaceLeftovers {
    /** Between two looks of {@link #awaitEmpty}. */
    private static final Duration POLL = Duration.ofMillis(50);

    private NamespaceLeftovers() {}

    /**
     * @param pid a process
     * @return its network namespace as {@code net:[N]}, or empty when it has exited (a zombie has none)
     */
    public static String netLink(long pid) {
        try {
            return Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "ns", "net")).toString();
        } catch (IOException gone) {
            return "";
        }
    }

    /**
     * @param inode a network namespace's inode number
     * @return pids of the live processes inside it (a zombie is inside none)
     * @throws IOException if {@code /proc} cannot be listed
     */
    public static List<Long> processesIn(long inode) throws IOException {
        String link = "net:[" + inode + "]";
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                long pid = Long.parseLong(p.getFileName().toString());
                if (netLink(pid).equals(link)) {
                    pids.add(pid);
                }
            }
        }
        return pids;
    }

    /**
     * Waits, up to {@code bound}, until no live process is inside any of the namespaces, looking
     * every 50 ms.
     *
     * @param inodes the namespaces' inode numbers
     * @param bound the longest wait
     * @return the pids still inside when the bound passed; empty when none is
     * @throws IOException if {@code /proc} cannot be listed
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<Long> awaitEmpty(List<Long> inodes, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            List<Long> left = new ArrayList<>();
            for (long inode : inodes) {
                left.addAll(processesIn(inode));
            }
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(POLL.toMillis()); // polling a condition under a bound, not ordering threads
        }
    }

    /**
     * Waits, up to {@code bound}, until every one of the processes has exited ({@link #goneOrZombie}),
     * looking every 50 ms: a process that was signalled, or whose parent died, may still be tearing
     * itself down (its memory, its descriptors) on a loaded host when a test first looks.
     *
     * @param pids the processes
     * @param bound the longest wait
     * @return the pids still running when the bound passed; empty when none is
     * @throws InterruptedException if interrupted while waiting
     */
    public static List<Long> awaitExited(List<Long> pids, Duration bound) throws InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            List<Long> left = pids.stream().filter(pid -> !goneOrZombie(pid)).toList();
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(POLL.toMillis()); // polling a condition under a bound, not ordering threads
        }
    }

    /**
     * @return the network and mount namespaces this JVM holds open descriptors on, as
     *     {@code net:[N]} and {@code mnt:[N]}
     * @throws IOException if {@code /proc/self/fd} cannot be listed
     */
    public static List<String> heldDescriptors() throws IOException {
        List<String> links = new ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String l = Files.readSymbolicLink(fd).toString();
                    if (l.startsWith("net:[") || l.startsWith("mnt:[")) {
                        links.add(l);
                    }
                } catch (IOException closed) {
                    // the listing's own descriptor
                }
            }
        }
        return links;
    }

    /**
     * @param pid a process
     * @return whether it has exited; a zombie, whose new parent has not reaped it yet, has exited too
     */
    public static boolean goneOrZombie(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
        } catch (IOException gone) {
            return true;
        }
    }
}
