package io.linerate.examples.mss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.nio.PathFacts;
import io.linerate.nio.latency.PingPong;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * With the native layer on the class path, nio's TCP patterns read each end's MSS from the kernel
 * ({@code tcpi_snd_mss} through sock_diag) instead of deriving it. On loopback the kernel bounds a
 * young connection's MSS by half the largest window it has seen, so the value read lies between 1
 * and what the loopback's MTU and the timestamp option give, worked out here apart from the code
 * under test; where the window does not bound it, across a veth or a namespace's loopback of a small
 * MTU, NetnsSuiteTest and the two-hosts agent test check the exact value.
 */
class NioMssReadTest {
    private static final RunFacts FACTS = new RunFacts("test", "2026-01-01T00:00:00Z", "Linux", "cpu", "jvm", "");

    @BeforeAll
    static void sourcePresent() {
        assumeTrue(TcpInfoSources.connection(new InetSocketAddress("127.0.0.1", 1), new InetSocketAddress("127.0.0.1", 2))
                .info() != null, "no TCP_INFO source here (not Linux, or the native layer does not load)");
    }

    /** min(MTU, 65535 for IPv4) - IP header - 20 TCP - 12 timestamps, from the loopback's MTU and the sysctl. */
    private static int expected(AddressFamily family) {
        int mtu = PathFacts.mtu(family.loopbackAddress()).orElseThrow();
        int ip = family == AddressFamily.IPV4 ? Math.min(mtu, 65535) - 20 : mtu - 40;
        return ip - 20 - (PathFacts.tcpTimestamps().orElseThrow() ? 12 : 0);
    }

    private static void readAtBothEnds(TcpMss mss, AddressFamily family) {
        assertThat(mss.read()).as(mss.derivation()).isPresent();
        TcpMss.Read read = mss.read().get();
        assertThat(mss.derivation()).isEqualTo("read: tcpi_snd_mss " + read.senderBytes() + " at the sender, "
                + read.receiverBytes() + " at the receiver");
        assertThat(read.senderBytes()).isBetween(1, expected(family));
        assertThat(read.receiverBytes()).isBetween(1, expected(family));
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aPingPongReadsTheMssAtBothEnds(AddressFamily family) throws Exception {
        PingPongResult r = PingPong.run(PingPongSpec.builder().protocol(PingPongProtocol.TCP).family(family).sizes(List.of(32))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(5), 10, 10, Duration.ZERO, 1))
                .timeout(Duration.ofSeconds(30)).build(), Clock.system(), FACTS);
        readAtBothEnds(r.options().tcpMss().orElseThrow(), family);
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void aStreamReadsTheMssAtBothEnds(AddressFamily family) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(family).bound(io.linerate.core.Bound.bytes(1 << 20))
                .warmup(Duration.ZERO).build();
        TransferResult r;
        try (Measurement m = Transports.select("nio", spec).open(spec, Clock.system())) {
            r = (TransferResult) m.run(sample -> { });
        }
        readAtBothEnds(r.options().tcpMss().orElseThrow(), family);
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void anRrRunReadsItsFirstConnectionsMss(AddressFamily family) throws Exception {
        RrSpec spec = RrSpec.builder().family(family).flows(1).warmup(Duration.ZERO).duration(Duration.ofMillis(200))
                .timeout(Duration.ofSeconds(30)).build();
        RrResult r;
        try (Measurement m = Transports.select("nio", spec).open(spec, Clock.system())) {
            r = (RrResult) m.run(sample -> { });
        }
        String note = r.report().notes().stream().filter(n -> n.startsWith("tcp mss ")).findFirst().orElseThrow();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "tcp mss (\\d+) B \\(read: tcpi_snd_mss (\\d+) at this host's end\\)")
                .matcher(note);
        assertThat(m.matches()).as(note).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isBetween(1, expected(family));
        assertThat(m.group(2)).isEqualTo(m.group(1));
    }

    @ParameterizedTest
    @EnumSource(AddressFamily.class)
    void theLoopbackProbeReadsAFullSegmentOnceItsWindowHasGrown(AddressFamily family) {
        TcpMss mss = PathFacts.readLoopbackTcpMss(family, Duration.ofSeconds(60)).orElseThrow();
        readAtBothEnds(mss, family);
        // after 1 MiB the receiver's window no longer bounds the sender's segment: the whole MTU's worth
        assertThat(mss.bytes()).as(mss.derivation()).isEqualTo(expected(family));
    }
}
