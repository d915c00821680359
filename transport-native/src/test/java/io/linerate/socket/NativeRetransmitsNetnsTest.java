package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AddressFamily;
import io.linerate.netns.NetworkNamespace;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A native stream's retransmits, as its result reports them from {@code TCP_INFO}, against the
 * kernel's own count: {@code TcpRetransSegs} of a network namespace this test makes (root), whose
 * loopback is shaped with {@code tc tbf} so that its queue drops segments and TCP retransmits them.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NativeRetransmitsNetnsTest {
    /** The stream's length: at 200 Mbit/s, thousands of drops (iperf3 counted 8,084 in as long). */
    private static final Duration STREAM = Duration.ofSeconds(2);

    @Test
    void theStreamsRetransmitsAreTheNamespacesTcpRetransSegs() throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        long inode;
        try (NetworkNamespace ns = NetworkNamespace.create("linerate-retrans-" + ProcessHandle.current().pid(), 1500)) {
            inode = ns.inode();
            // a 100 KB queue behind a 200 Mbit/s bucket: what a window beyond that sends is dropped
            ns.check(List.of(NetworkNamespace.tool("tc"), "qdisc", "add", "dev", "lo", "root", "tbf", "rate", "200mbit",
                    "burst", "64kb", "limit", "100kb"));
            long before = NamespaceStreams.retransmittedSegments(ns);
            NamespaceStreams.Stream s = NamespaceStreams.run(ns, AddressFamily.IPV4, STREAM);
            long kernel = NamespaceStreams.retransmittedSegments(ns) - before;
            long linerate = s.json().path("tcp_info").path("tcpi_total_retrans").asLong(-1);
            String figures = "linerate's retransmits " + linerate + ", the namespace's TcpRetransSegs " + kernel;
            System.out.println(figures);
            // only this stream's two sockets ran in the fresh namespace, so every segment its TCP
            // retransmitted is theirs; enough of them that a count read early or from one end alone shows
            assertThat(kernel).as(figures + "\n" + s.output()).isGreaterThanOrEqualTo(100);
            assertThat((double) linerate).as(figures + "\n" + s.output()).isCloseTo(kernel, withPercentage(2));
            // warm-up 0: the measured window is the whole stream
            assertThat(s.json().path("tcp_info").path("retransmits_window").asLong(-1)).as(figures)
                    .isCloseTo(linerate, withPercentage(2));
            // each interval holds tcpi_total_retrans at its closing tick minus at its opening one, so
            // they add up to the count at the last tick minus at the start (0 on the fresh connection):
            // the data still queued when the window closed may be retransmitted after it, never before
            long intervals = 0;
            for (JsonNode i : s.json().path("intervals")) {
                assertThat(i.has("retransmits")).as("interval %s", i).isTrue();
                intervals += i.path("retransmits").asLong();
            }
            System.out.println("the intervals' retransmits add up to " + intervals);
            assertThat(intervals).as(figures + "; intervals " + intervals).isPositive().isLessThanOrEqualTo(linerate);
        }
        NamespaceStreams.assertRemoved(inode);
    }
}
