package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.live.LiveCounters;
import io.linerate.netns.NetworkNamespace;
import io.linerate.testsupport.NamespaceLeftovers;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@code nio} stream's retransmits, as its result reports them from the sender's
 * {@code tcp_info} read through sock_diag netlink (the native module is on this module's class
 * path), against the kernel's own count: {@code TcpRetransSegs} of a network namespace this test
 * makes (root), whose loopback is shaped with {@code tc tbf} so that its queue drops segments and
 * TCP retransmits them. The native transport's test of the same shape is in transport-native.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NioRetransmitsNetnsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The stream's length: at 200 Mbit/s, thousands of drops. */
    private static final Duration STREAM = Duration.ofSeconds(2);
    /** Bound on the child's run: JVM start, the stream and its I/O timeouts, on a loaded host. */
    private static final Duration CHILD_BOUND = Duration.ofSeconds(180);

    @Test
    void theStreamsRetransmitsAreTheNamespacesTcpRetransSegs() throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        long inode;
        try (NetworkNamespace ns = NetworkNamespace.create("linerate-nio-retrans-" + ProcessHandle.current().pid(), 1500)) {
            inode = ns.inode();
            // a 100 KB queue behind a 200 Mbit/s bucket: what a window beyond that sends is dropped
            ns.check(List.of(NetworkNamespace.tool("tc"), "qdisc", "add", "dev", "lo", "root", "tbf", "rate", "200mbit",
                    "burst", "64kb", "limit", "100kb"));
            long before = retransmittedSegments(ns);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = ns.exec(childCommand(), CHILD_BOUND, new PrintWriter(out), new PrintWriter(err));
            long kernel = retransmittedSegments(ns) - before;
            assertThat(rc).as(out + err.toString()).isZero();
            JsonNode tcp = JSON.readTree(out.toString().strip()).path("tcp_info");
            long linerate = tcp.path("tcpi_total_retrans").asLong(-1);
            String figures = "linerate's retransmits " + linerate + ", the namespace's TcpRetransSegs " + kernel;
            System.out.println(figures);
            // only this stream's two sockets ran in the fresh namespace, so every segment its TCP
            // retransmitted is theirs; enough of them that a count read early or from one end alone shows
            assertThat(kernel).as(figures + "\n" + out + err).isGreaterThanOrEqualTo(100);
            assertThat((double) linerate).as(figures + "\n" + out + err).isCloseTo(kernel, withPercentage(2));
            // warm-up 0: the measured window is the whole stream
            assertThat(tcp.path("retransmits_window").asLong(-1)).as(figures).isCloseTo(linerate, withPercentage(2));
        }
        assertThat(NamespaceLeftovers.awaitEmpty(List.of(inode), Duration.ofSeconds(60))).isEmpty();
        assertThat(NamespaceLeftovers.heldDescriptors()).doesNotContain("net:[" + inode + "]");
    }

    private static List<String> childCommand() {
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        return List.of(java, LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"),
                NioStreamInNamespace.class.getName(), Long.toString(STREAM.toMillis()));
    }

    /**
     * @return the namespace's {@code TcpRetransSegs} (RFC 1213's tcpRetransSegs), its absolute
     *     value: {@code nstat -a} ignores the history file, and {@code -s} leaves that file as it was
     */
    private static long retransmittedSegments(NetworkNamespace ns) throws IOException {
        NetworkNamespace.Result r = ns.check(List.of(NetworkNamespace.tool("nstat"), "-asz", "-j", "TcpRetransSegs"));
        JsonNode v = JSON.readTree(r.stdout()).path("kernel").path("TcpRetransSegs");
        if (!v.isIntegralNumber()) {
            throw new IOException("nstat printed no TcpRetransSegs in namespace " + ns.name() + ": " + r.stdout());
        }
        return v.asLong();
    }
}
