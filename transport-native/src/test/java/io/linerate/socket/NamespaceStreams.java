package io.linerate.socket;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.AddressFamily;
import io.linerate.core.live.LiveCounters;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.NamespaceLeftovers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.assertj.core.api.Assertions;

/**
 * What the namespace tests of the native transport share: a native stream run by
 * {@link NamespaceStreamChild} in a JVM inside a namespace, and the namespace's kernel counters as
 * {@code nstat} reads them.
 */
final class NamespaceStreams {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** Bound on a child's run: JVM start, the stream and its I/O timeouts, on a loaded host. */
    private static final Duration CHILD_BOUND = Duration.ofSeconds(180);
    /** Bound on the wait for a closed namespace's last process to exit, generous for a loaded host. */
    private static final Duration REMOVAL_BOUND = Duration.ofSeconds(60);

    private NamespaceStreams() {
    }

    /** A stream's outputs: the text summary line and the detail JSON, as the child printed them. */
    record Stream(String text, JsonNode json, String output) {}

    /**
     * Runs a native TCP stream of the given length, warm-up 0, in a JVM inside the namespace.
     *
     * @throws IOException when the child cannot run, or fails (the message holds what it printed)
     */
    static Stream run(NetworkNamespace ns, AddressFamily family, Duration duration) throws IOException {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = List.of(java, LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"),
                NamespaceStreamChild.class.getName(), family.name().toLowerCase(Locale.ROOT),
                Long.toString(duration.toMillis()));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = ns.exec(cmd, CHILD_BOUND, new PrintWriter(out), new PrintWriter(err));
        String output = out + err.toString();
        List<String> lines = out.toString().lines().toList();
        if (rc != 0 || lines.size() != 2) {
            throw new IOException("the stream in namespace " + ns.name() + " exited with " + rc + ": " + output);
        }
        return new Stream(lines.get(0), JSON.readTree(lines.get(1)), output);
    }

    /**
     * @return the namespace's {@code TcpRetransSegs} (RFC 1213's tcpRetransSegs: segments the
     *     namespace's TCP retransmitted), its absolute value: {@code nstat -a} ignores the history
     *     file, and {@code -s} leaves that file (shared by every namespace) as it was
     * @throws IOException when nstat fails or prints no such counter
     */
    static long retransmittedSegments(NetworkNamespace ns) throws IOException {
        NetworkNamespace.Result r = ns.check(List.of(NetworkNamespace.tool("nstat"), "-asz", "-j", "TcpRetransSegs"));
        JsonNode v = JSON.readTree(r.stdout()).path("kernel").path("TcpRetransSegs");
        if (!v.isIntegralNumber()) {
            throw new IOException("nstat printed no TcpRetransSegs in namespace " + ns.name() + ": " + r.stdout());
        }
        return v.asLong();
    }

    /**
     * Asserts that a closed namespace is gone: no process is inside it (waiting up to 60 s for the
     * last to exit) and this JVM holds no descriptor on it, so that the kernel has freed it.
     *
     * @param inode the namespace's inode number ({@link NetworkNamespace#inode()})
     */
    static void assertRemoved(long inode) throws IOException, InterruptedException {
        Assertions.assertThat(NamespaceLeftovers.awaitEmpty(List.of(inode), REMOVAL_BOUND)).isEmpty();
        Assertions.assertThat(NamespaceLeftovers.heldDescriptors()).doesNotContain("net:[" + inode + "]");
    }
}
