package io.linerate.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A namespace held by process and descriptor: made with its loopback MTU, entered, and gone on close. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NetworkNamespaceTest {
    static final Duration T = Duration.ofSeconds(60);

    static void assumeNamespaces() {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    }

    /** @return pids of the live processes whose network namespace has this inode (zombies have none) */
    static List<Long> processesIn(long inode) throws IOException {
        String link = "net:[" + inode + "]";
        List<Long> pids = new ArrayList<>();
        try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
            for (Path p : procs.filter(p -> p.getFileName().toString().matches("[0-9]+")).toList()) {
                try {
                    if (Files.readSymbolicLink(p.resolve("ns/net")).toString().equals(link)) {
                        pids.add(Long.parseLong(p.getFileName().toString()));
                    }
                } catch (IOException gone) {
                    // exited meanwhile, or a zombie
                }
            }
        }
        return pids;
    }

    /**
     * Waits, up to {@code bound}, until no live process is in any of the namespaces; a namespace
     * nothing holds is freed by the kernel (this JVM's descriptors must be closed too).
     *
     * @return the pids still inside when the bound passed, empty when none
     */
    static List<Long> awaitEmpty(List<Long> inodes, Duration bound) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            List<Long> left = new ArrayList<>();
            for (long inode : inodes) {
                left.addAll(processesIn(inode));
            }
            if (left.isEmpty() || System.nanoTime() > deadline) {
                return left;
            }
            Thread.sleep(50); // polling a condition under a bound, not ordering threads
        }
    }

    /** @return the inodes of this JVM's open namespace descriptors */
    static List<String> heldDescriptors() throws IOException {
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

    @Test
    void namespaceIsMadeWithItsMtuEnteredAndGoneOnClose() throws Exception {
        assumeNamespaces();
        String name = "linerate-test-" + ProcessHandle.current().pid();
        String own = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
        List<String> namedBefore = NetworkNamespace.list();
        long inode;
        long holder;
        NamespaceProcess sleeper;
        try (NetworkNamespace ns = NetworkNamespace.create(name, 1280)) {
            inode = ns.inode();
            holder = ns.holderPid();
            assertThat("net:[" + inode + "]").isNotEqualTo(own);
            assertThat(heldDescriptors()).contains("net:[" + inode + "]");
            // not registered under a name: a name would keep the namespace past a SIGKILL
            assertThat(NetworkNamespace.list()).isEqualTo(namedBefore);
            String link = ns.run(List.of("ip", "link", "show", "lo"), T).stdout();
            assertThat(link).contains("mtu 1280").contains("UP");
            // /sys is the namespace's, as under ip netns exec: the host's lo has MTU 65536, this one 1280
            assertThat(ns.run(List.of("cat", "/sys/class/net/lo/mtu"), T).stdout().strip()).isEqualTo("1280");
            // a command runs inside, in this JVM's working directory
            NetworkNamespace.Result inside = ns.run(List.of("sh", "-c", "readlink /proc/self/ns/net; pwd"), T);
            assertThat(inside.stdout().lines().toList())
                    .containsExactly("net:[" + inode + "]", System.getProperty("user.dir"));
            sleeper = ns.start(List.of("sleep", "600"));
            assertThat(awaitInside(sleeper.pid(), inode)).isTrue();
            assertThat(processesIn(inode)).contains(holder, sleeper.pid());
        }
        // close killed what was left inside, the holder exited and this JVM let go of its descriptors
        assertThat(sleeper.process().waitFor(T.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(awaitEmpty(List.of(inode), T)).isEmpty();
        assertThat(heldDescriptors()).doesNotContain("net:[" + inode + "]");
        assertThat(NetworkNamespace.list()).isEqualTo(namedBefore);
    }

    /** Waits (bounded) until nsenter has entered the namespace and exec'd the command. */
    private static boolean awaitInside(long pid, long inode) throws Exception {
        long deadline = System.nanoTime() + T.toNanos();
        while (System.nanoTime() < deadline) {
            if (processesIn(inode).contains(pid)) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }

    @Test
    void aClosedNamespaceRunsNothing() throws Exception {
        assumeNamespaces();
        NetworkNamespace ns = NetworkNamespace.create("linerate-test-closed", 65536);
        ns.close();
        ns.close(); // idempotent
        assertThatThrownBy(() -> ns.run(List.of("true"), T))
                .hasMessage("network namespace linerate-test-closed is closed");
    }

    @Test
    void badNameAndMtuAreRefused() {
        assertThatThrownBy(() -> NetworkNamespace.create("bad name", 1280))
                .hasMessage("namespace name 'bad name' is not allowed; allowed: 1..64 of A-Z a-z 0-9 _ . -");
        assertThatThrownBy(() -> NetworkNamespace.create("x", 1279))
                .hasMessage("loopback MTU 1279 is out of range; allowed: 1280..65536");
    }

    @Test
    void aStaleNameIsOneOfLineratesWhoseOwnerIsGone() throws Exception {
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        long dead = done.pid();
        long alive = ProcessHandle.current().parent().orElseThrow().pid();
        assertThat(StaleNamespaces.isStale("linerate-" + dead)).isTrue();
        assertThat(StaleNamespaces.isStale("linerate-" + dead + "-1-a")).isTrue();
        assertThat(StaleNamespaces.isStale("linerate-" + alive)).isFalse();
        assertThat(StaleNamespaces.isStale("linerate-" + ProcessHandle.current().pid())).isFalse();
        assertThat(StaleNamespaces.isStale("linerate-test-" + dead)).isFalse();
        assertThat(StaleNamespaces.isStale("other-" + dead)).isFalse();
    }

    @Test
    void aStaleNameIsRemoved() throws Exception {
        assumeNamespaces();
        Process done = new ProcessBuilder("true").start();
        done.waitFor();
        // the name an earlier release left after a SIGKILL: linerate-<pid> of a process that is gone
        String stale = "linerate-" + done.pid();
        Commands.check(List.of(NetworkNamespace.tool("ip"), "netns", "add", stale), T);
        try {
            assertThat(NetworkNamespace.list()).contains(stale);
            StaleNamespaces.remove();
            assertThat(NetworkNamespace.list()).doesNotContain(stale);
        } finally {
            Commands.run(List.of(NetworkNamespace.tool("ip"), "netns", "del", stale), T);
        }
    }
}
