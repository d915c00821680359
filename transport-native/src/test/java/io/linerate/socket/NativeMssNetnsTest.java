package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

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
 * The MSS a native stream reads ({@code TCP_MAXSEG}) at both ends, inside a network namespace this
 * test makes (root) whose loopback has an MTU of {@value #MTU} bytes.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NativeMssNetnsTest {
    private static final int MTU = 1400;

    @Test
    void anIpv4StreamReadsTheMtuLessIpTcpAndTimestampBytesAtBothEnds() throws Exception {
        Optional<String> why = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(why.isEmpty(), () -> "skipped: " + why.orElse(""));
        long inode;
        try (NetworkNamespace ns = NetworkNamespace.create("linerate-mss-" + ProcessHandle.current().pid(), MTU)) {
            inode = ns.inode();
            // a fresh namespace starts with the kernel's default, timestamps on (ip-sysctl.rst)
            assertThat(ns.check(List.of("cat", "/proc/sys/net/ipv4/tcp_timestamps")).stdout().strip()).isEqualTo("1");
            NamespaceStreams.Stream s = NamespaceStreams.run(ns, AddressFamily.IPV4, Duration.ofMillis(500));
            // RFC 9293 3.7.1: MTU less the fixed IPv4 (20) and TCP (20) headers; every segment carries the
            // timestamps option (RFC 7323), 10 bytes padded to 12
            int mss = MTU - 20 - 20 - 12;
            assertThat(mss).isEqualTo(1348);
            assertThat(s.json().path("options").path("tcp_mss").asInt()).as(s.output()).isEqualTo(mss);
            assertThat(s.json().path("options").path("tcp_mss_receiver").asInt()).as(s.output()).isEqualTo(mss);
            assertThat(s.json().path("options").path("tcp_mss_source").asText())
                    .isEqualTo("read: TCP_MAXSEG 1348 at the sender, 1348 at the receiver");
            assertThat(s.json().path("tcp_info").path("tcpi_snd_mss").asInt()).isEqualTo(mss);
            // tcpi_rcv_mss is the largest segment the receiver saw, not a read MSS: one 1220-byte write a
            // segment while the receiver keeps up, full segments once the sender's writes coalesce
            assertThat(s.json().path("tcp_info").path("tcpi_rcv_mss").asInt()).isPositive().isLessThanOrEqualTo(mss);
            assertThat(s.text()).as(s.output()).contains("mss 1348 B").doesNotContain("derived");
            assertThat(s.json().toString()).doesNotContain("derived");
        }
        NamespaceStreams.assertRemoved(inode);
    }
}
