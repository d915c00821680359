package io.linerate.testsupport;

import static io.linerate.testsupport.NamespaceLeftovers.awaitEmpty;
import static io.linerate.testsupport.NamespaceLeftovers.heldDescriptors;
import static io.linerate.testsupport.NamespaceLeftovers.processesIn;
import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a namespace leaves behind, read on a real one: while it is open its holder and a command
 * are inside and this JVM holds its descriptor; after close nothing is inside and no descriptor
 * holds it. It is also the test that a {@link NetworkNamespace} is made with its loopback MTU,
 * entered, and gone on close.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NamespaceLeftoversTest {
    private static final Duration T = Duration.ofSeconds(60);

    private static void assumeNamespaces() {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
    }

    @Test
    void aProcessThatExitedIsGoneAndThisJvmIsNot() throws Exception {
        Process done = new ProcessBuilder("true").start();
        assertThat(done.waitFor(T.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // reaped by waitFor: its /proc entry is gone
        assertThat(NamespaceLeftovers.goneOrZombie(done.pid())).isTrue();
        assertThat(NamespaceLeftovers.goneOrZombie(ProcessHandle.current().pid())).isFalse();
        // this JVM's own namespace, as the kernel names it
        assertThat(NamespaceLeftovers.netLink(ProcessHandle.current().pid()))
                .isEqualTo(Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString());
        assertThat(NamespaceLeftovers.netLink(done.pid())).isEmpty();
    }

    @Test
    void awaitingExitReturnsTheProcessesStillRunningAtTheBound() throws Exception {
        Process done = new ProcessBuilder("true").start();
        assertThat(done.waitFor(T.toSeconds(), TimeUnit.SECONDS)).isTrue();
        long self = ProcessHandle.current().pid();
        assertThat(NamespaceLeftovers.awaitExited(List.of(done.pid()), Duration.ZERO)).isEmpty();
        // this JVM runs on: after the bound it is the one left
        assertThat(NamespaceLeftovers.awaitExited(List.of(done.pid(), self), Duration.ofMillis(100)))
                .containsExactly(self);
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
}
