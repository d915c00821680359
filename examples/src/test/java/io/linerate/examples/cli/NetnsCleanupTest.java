package io.linerate.examples.cli;

import static io.linerate.testsupport.NamespaceLeftovers.awaitEmpty;
import static io.linerate.testsupport.NamespaceLeftovers.awaitExited;
import static io.linerate.testsupport.NamespaceLeftovers.netLink;
import static io.linerate.testsupport.NamespaceLeftovers.processesIn;
import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.live.LiveCounters;
import io.linerate.netns.NamespaceProcess;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.ChildOutput;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

/**
 * {@code loopback --netns} leaves nothing behind however linerate ends, and without root it fails
 * with exit code 2 rather than quietly running without the namespace.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NetnsCleanupTest {
    /** The default --io-timeout: the bound within which the namespace and the child JVM must be gone. */
    private static final Duration IO_TIMEOUT = Duration.ofSeconds(5);

    @Test
    void withoutRootNetnsIsBadUsageAndRunsNothing() {
        LoopbackCommand loopback = new LoopbackCommand();
        loopback.namespaceUnavailable = () -> Optional.of("making a network namespace needs root (CAP_SYS_ADMIN)");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.commandLine(loopback);
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));

        int exit = cl.execute("--netns", "--markers", "udp4", "--duration", "100ms");

        assertThat(exit).isEqualTo(Linerate.USAGE);
        assertThat(err.toString().replace(System.lineSeparator(), "\n")).isEqualTo("linerate: --netns: making a network "
                + "namespace needs root (CAP_SYS_ADMIN); without --netns the suite runs on this host's loopback, where "
                + "the *_frag transfers are skipped with their reason\n");
        assertThat(out.toString()).isEmpty();
    }

    /**
     * Starts {@code linerate loopback --netns} in a JVM of its own, waits until its child JVM runs
     * the suite in the namespace, signals the parent, and checks that within the I/O timeout no
     * process is left in the namespace (so the kernel has freed it) and no process it started lives.
     */
    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"KILL", "INT"})
    void aSignalledRunLeavesNoNamespaceAndNoChildJvm(String signal) throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        List<String> named = NetworkNamespace.list();
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"), Linerate.class.getName(),
                "loopback", "--netns", "--markers", "tcp4", "--duration", "60s", "--warmup", "0s");
        Process parent = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        List<ProcessHandle> started;
        long inode;
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(parent.getInputStream(), StandardCharsets.UTF_8));
            // the suite's header line comes from the child JVM, so the child runs inside the namespace by now
            String header = ChildOutput.lineWithin(out, Duration.ofSeconds(60));
            assertThat(header).startsWith("# linerate ").contains(" loopback: ").endsWith("loopback MTU 1280");
            started = parent.descendants().toList();
            String own = Files.readSymbolicLink(Path.of("/proc/self/ns/net")).toString();
            inode = started.stream().map(p -> netLink(p.pid())).filter(l -> l.startsWith("net:[") && !l.equals(own))
                    .map(l -> Long.parseLong(l.substring(5, l.length() - 1))).findFirst().orElseThrow();
            assertThat(processesIn(inode)).hasSizeGreaterThanOrEqualTo(2); // the holder and the child JVM
            if (signal.equals("KILL")) {
                parent.destroyForcibly();
            } else {
                assertThat(new ProcessBuilder("kill", "-INT", Long.toString(parent.pid())).start().waitFor()).isZero();
            }
            // the parent's own bound: SIGTERM to the child, its grace, then SIGKILL and a wait of at most the
            // namespace commands' timeout; generously more on a loaded host
            long bound = NamespaceProcess.GRACE.plus(NetworkNamespace.COMMAND_TIMEOUT).plusSeconds(30).toSeconds();
            assertThat(parent.waitFor(bound, TimeUnit.SECONDS)).as("the parent ended within %d s", bound).isTrue();
        } finally {
            parent.destroyForcibly();
        }
        // 128 + the signal: SIGKILL 9 ends the JVM at once, SIGINT 2 after its shutdown hooks
        assertThat(parent.exitValue()).isEqualTo(signal.equals("KILL") ? 137 : 130);
        assertThat(awaitEmpty(List.of(inode), IO_TIMEOUT)).isEmpty();
        assertThat(awaitExited(started.stream().map(ProcessHandle::pid).toList(), Duration.ofSeconds(30)))
                .as("processes the run started, still running").isEmpty();
        assertThat(NetworkNamespace.list()).isEqualTo(named);
    }
}
