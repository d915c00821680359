package io.linerate.netns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A namespace's name and MTU checks, a closed one running nothing, and stale names. That a namespace
 * is made with its MTU, entered, and gone on close is {@code NamespaceLeftoversTest}'s, in
 * test-support, which reads what it leaves behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NetworkNamespaceTest {
    static final Duration T = Duration.ofSeconds(60);

    static void assumeNamespaces() {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
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
