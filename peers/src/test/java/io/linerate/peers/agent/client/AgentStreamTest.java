package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Streams between this JVM and an agent in it, over 127.0.0.1. */
@Timeout(60)
public class AgentStreamTest {
    public static final byte[] SECRET = "s3cret".getBytes(StandardCharsets.US_ASCII);
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    public static TransferSpec.Builder spec(Agent agent, Protocol p) {
        return TransferSpec.builder().protocol(p).family(AddressFamily.IPV4)
                .payloadBytes(p == Protocol.TCP ? 64 * 1024 : 1200)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(5))
                .endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort()));
    }

    public static RemoteStreamResult run(TransferSpec spec, boolean reverse) throws Exception {
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(),
                new RemoteOptions(Optional.of(SECRET), reverse))) {
            return t.runBothEnds(IntervalListener.NONE);
        }
    }

    @Test
    void tcpForwardTheAgentReceivesEveryByteThisEndSent() throws Exception {
        RemoteStreamResult r = run(spec(agent, Protocol.TCP).build(), false);

        assertThat(r.local().sender()).isTrue();
        assertThat(r.remote().sender()).isFalse();
        assertThat(r.local().bytes()).isPositive();
        // TCP delivers every byte written before the sender shut its output down
        assertThat(r.remote().bytes()).isEqualTo(r.local().bytes());
        assertThat(r.transfer().bytesSent()).isEqualTo(r.local().bytes());
        assertThat(r.transfer().bytesReceived()).isEqualTo(r.remote().bytes());
        assertThat(r.transfer().invalidReasons()).isEmpty();
        assertThat(r.metrics()).extracting(Metric::host).contains("local", "remote");
        // this end sends: its tcp_info, read through sock_diag (the native layer is on the test class path)
        senderTcpInfo(r, -1);
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("tcp4_retransmits")).singleElement()
                .satisfies(m -> assertThat(m.host()).isEqualTo("local"));
        // and at every interval of this end, whose intervals the result carries
        assertThat(r.transfer().intervals()).isNotEmpty().allSatisfy(i -> assertThat(i.tcp()).hasValueSatisfying(t -> {
            assertThat(t.retransmits()).isNotNegative();
            assertThat(t.cwndBytes()).isPositive();
        }));
    }

    /** The sender's tcp_info figures are there and consistent; its receiver MSS is {@code receiverMss}. */
    private static void senderTcpInfo(RemoteStreamResult r, long receiverMss) {
        io.linerate.core.TcpStats t = r.transfer().tcp().orElseThrow();
        int derived = io.linerate.nio.PathFacts.loopbackTcpMss(io.linerate.core.AddressFamily.IPV4).orElseThrow().bytes();
        assertThat(t.senderMss()).isBetween(1L, (long) derived);
        assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
        // the congestion window in bytes is a whole number of send MSS (iperf3's snd_cwnd x snd_mss)
        assertThat(t.cwndBytes()).isPositive();
        assertThat(t.cwndBytes() % t.senderMss()).isZero();
        assertThat(t.rttMicros()).isPositive();
        assertThat(t.receiverMss()).isEqualTo(receiverMss);
    }

    @Test
    void tcpReverseThisEndReceivesEveryByteTheAgentSent() throws Exception {
        RemoteStreamResult r = run(spec(agent, Protocol.TCP).build(), true);

        assertThat(r.local().sender()).isFalse();
        assertThat(r.remote().sender()).isTrue();
        assertThat(r.remote().bytes()).isPositive();
        assertThat(r.local().bytes()).isEqualTo(r.remote().bytes());
        assertThat(r.transfer().invalidReasons()).isEmpty();
        // the agent sends: each end read its own MSS from its tcp_info (sock_diag, the native layer being
        // on this module's test class path), at most what the loopback's MTU gives
        int derived = io.linerate.nio.PathFacts.loopbackTcpMss(spec(agent, Protocol.TCP).build().family()).orElseThrow().bytes();
        io.linerate.core.TcpMss.Read read = r.transfer().options().tcpMss().orElseThrow().read().orElseThrow();
        assertThat(read.how()).isEqualTo("tcpi_snd_mss");
        assertThat(read.senderBytes()).isBetween(1, derived);
        assertThat(read.receiverBytes()).isBetween(1, derived);
        // the agent sends: its sending socket's tcp_info came back over the control connection
        senderTcpInfo(r, -1);
        // and its retransmits are a metric of the agent's host, with kperf's report-only policy
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("tcp4_retransmits")).singleElement().satisfies(m -> {
            assertThat(m.host()).isEqualTo("remote");
            assertThat(m.value()).isEqualTo((double) r.transfer().tcp().orElseThrow().windowRetransmits());
        });
    }

    @Test
    void udpForwardSentIsReceivedPlusLost() throws Exception {
        // 20 Mbit/s of 1200 B datagrams: about 2083 datagrams/s, ~625 in the 300 ms window
        RemoteStreamResult r = run(spec(agent, Protocol.UDP).rateBitsPerSecond(20_000_000).build(), false);

        UdpStats u = r.transfer().udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(r.local().windowMessages()).isPositive();
        assertThat(u.datagramsReceived()).isEqualTo(r.remote().windowMessages());
        assertThat(u.datagramsSent()).isEqualTo(u.datagramsReceived() + u.lost());
        // the receiver counts distinct datagrams: never more than were sent
        assertThat(r.remote().messages()).isLessThanOrEqualTo(r.local().messages());
    }

    @Test
    void udpReverseSentIsReceivedPlusLost() throws Exception {
        RemoteStreamResult r = run(spec(agent, Protocol.UDP).rateBitsPerSecond(20_000_000).build(), true);

        UdpStats u = r.transfer().udp().orElseThrow();
        assertThat(u.datagramsSent()).isEqualTo(r.remote().windowMessages()).isPositive();
        assertThat(u.datagramsReceived()).isEqualTo(r.local().windowMessages());
        assertThat(u.datagramsSent()).isEqualTo(u.datagramsReceived() + u.lost());
    }

    @Test
    void udpReverseCountsExactlyTheAgentsWindowDatagramsAndItsGoodputIsOverTheSendersWindow() throws Exception {
        // 20 Mbit/s of 1200 B datagrams: ~625 in the agent's 300 ms window
        java.util.List<io.linerate.core.IntervalSample> samples = new java.util.concurrent.CopyOnWriteArrayList<>();
        RemoteStreamResult r;
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec(agent, Protocol.UDP)
                .rateBitsPerSecond(20_000_000).build(), Clock.system(), new RemoteOptions(Optional.of(SECRET), true))) {
            r = t.runBothEnds(samples::add);
        }
        UdpStats u = r.transfer().udp().orElseThrow();
        long sent = r.remote().windowMessages();
        assertThat(sent).isPositive();
        // received + lost is the agent's window count exactly: the datagrams' phase says which are the window's
        assertThat(u.datagramsSent()).isEqualTo(sent);
        assertThat(u.datagramsReceived() + u.lost()).isEqualTo(sent);
        // every window datagram carries 1200 payload bytes: the window bytes are the distinct ones that arrived
        assertThat(r.transfer().windowBytesReceived()).isEqualTo(u.datagramsReceived() * 1200);
        // the interval lines of the window add up to the summary (those that arrived during this end's
        // warm-up are in its first window sample, those after its window closed in a last one)
        assertThat(samples.stream().filter(s -> !s.omitted()).mapToLong(io.linerate.core.IntervalSample::datagrams)
                .sum()).isEqualTo(u.datagramsReceived());
        assertThat(samples.stream().filter(s -> !s.omitted()).mapToLong(io.linerate.core.IntervalSample::bytes)
                .sum()).isEqualTo(r.transfer().windowBytesReceived());
        // goodput is received window bytes x 8 over the sender's window, so never above what it sent x 8 over it
        double window = r.remote().windowNanos() / 1e9;
        assertThat(r.transfer().measuredNanos()).isEqualTo(r.remote().windowNanos());
        assertThat(r.transfer().bitsPerSecond().orElseThrow())
                .isCloseTo(u.datagramsReceived() * 1200 * 8 / window, org.assertj.core.data.Offset.offset(1e-3))
                .isLessThanOrEqualTo(sent * 1200 * 8 / window + 1e-3);
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("udp4_mbps") && m.host().equals("local"))
                .singleElement().satisfies(m -> assertThat(m.value())
                        .isCloseTo(u.datagramsReceived() * 1200 * 8 / window / 1e6, org.assertj.core.data.Offset.offset(1e-6)));
    }

    @Test
    void tcpBidirEachDirectionsReceiverGotEveryByteItsSenderSent() throws Exception {
        RemoteBidirResult r = RemoteBidir.run(spec(agent, Protocol.TCP).build(), Clock.system(), Optional.of(SECRET),
                IntervalListener.NONE, IntervalListener.NONE);

        assertThat(r.forward().local().sender()).isTrue();
        assertThat(r.reverse().local().sender()).isFalse();
        assertThat(r.forward().local().bytes()).isPositive();
        assertThat(r.reverse().remote().bytes()).isPositive();
        assertThat(r.forward().remote().bytes()).isEqualTo(r.forward().local().bytes());
        assertThat(r.reverse().local().bytes()).isEqualTo(r.reverse().remote().bytes());
        assertThat(r.invalidReasons()).isEmpty();
        assertThat(r.metrics()).extracting(m -> m.labels().get("direction") + "/" + m.host())
                .contains("forward/local", "forward/remote", "reverse/local", "reverse/remote");
    }

    @Test
    void udpBidirEachDirectionSentIsReceivedPlusLost() throws Exception {
        RemoteBidirResult r = RemoteBidir.run(spec(agent, Protocol.UDP).rateBitsPerSecond(20_000_000).build(),
                Clock.system(), Optional.of(SECRET), IntervalListener.NONE, IntervalListener.NONE);

        for (RemoteStreamResult d : java.util.List.of(r.forward(), r.reverse())) {
            UdpStats u = d.transfer().udp().orElseThrow();
            assertThat(u.datagramsSent()).isPositive();
            assertThat(u.datagramsSent()).isEqualTo(u.datagramsReceived() + u.lost());
        }
        assertThat(r.forward().transfer().udp().orElseThrow().datagramsSent()).isEqualTo(r.forward().local().windowMessages());
        assertThat(r.reverse().transfer().udp().orElseThrow().datagramsSent()).isEqualTo(r.reverse().remote().windowMessages());
    }
}
