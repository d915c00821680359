package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.RemoteParallelResult;
import io.linerate.peers.agent.client.RemoteStreamResult;
import io.linerate.peers.agent.client.RemoteStreamTransfer;
import io.linerate.peers.agent.internal.wire.ParallelEnds;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Several streams in one session with an agent in this JVM, over 127.0.0.1 ({@code --parallel}). */
@Timeout(60)
class AgentParallelTest {
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        // at most 3 streams a session
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                new AgentLimits(8, Duration.ofMinutes(1), 0, 1 << 20, 3), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    private RemoteParallelResult run(TransferSpec spec, boolean reverse, int streams, AtomicIntegerArray intervals)
            throws TransferException {
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(),
                new RemoteOptions(Optional.of(AgentStreamTest.SECRET), reverse, streams))) {
            return t.runStreams((i, s) -> intervals.incrementAndGet(i));
        }
    }

    @ParameterizedTest(name = "TCP reverse={0}")
    @CsvSource({"false", "true"})
    void tcpEveryStreamsReceiverCountsEveryByteItsSenderSentAndTheSumIsTheirs(boolean reverse) throws Exception {
        AtomicIntegerArray intervals = new AtomicIntegerArray(3);
        RemoteParallelResult r = run(AgentStreamTest.spec(agent, Protocol.TCP).build(), reverse, 3, intervals);

        assertThat(r.streams()).hasSize(3);
        long sum = 0;
        for (int i = 0; i < 3; i++) {
            RemoteStreamResult s = r.streams().get(i);
            assertThat(s.local().sender()).isEqualTo(!reverse);
            assertThat(s.remote().sender()).isEqualTo(reverse);
            // TCP delivers every byte written before the sender shut its output down, on every connection
            assertThat(s.remote().bytes()).isEqualTo(s.local().bytes()).isPositive();
            // each stream's own listener got its own intervals
            assertThat(intervals.get(i)).as("stream %d intervals", i).isPositive();
            // stream i carries stream id 1 + i (the spec's default id is 1)
            assertThat(((TransferSpec) s.transfer().spec()).streamId()).isEqualTo(1 + i);
            sum += s.local().bytes();
        }
        assertThat(r.bytes("local")).isEqualTo(sum);
        assertThat(r.bytes("remote")).isEqualTo(sum);
        assertThat(r.invalidReasons()).isEmpty();
        // three streams' metrics at two hosts, and a sum at each host: the sender's rate where it sends,
        // the receiver's goodput where it receives
        String here = reverse ? "tcp4_mbps" : "tcp4_sent_mbps";
        String there = reverse ? "tcp4_sent_mbps" : "tcp4_mbps";
        assertThat(r.metrics()).filteredOn(m -> m.name().endsWith("_mbps") && "sum".equals(m.labels().get("stream")))
                .extracting(m -> m.name() + "@" + m.host()).containsExactlyInAnyOrder(here + "@local", there + "@remote");
        double perStream = r.metrics().stream().filter(m -> m.name().equals(here) && m.host().equals("local")
                && !"sum".equals(m.labels().get("stream"))).mapToDouble(Metric::value).sum();
        double summed = r.metrics().stream().filter(m -> m.name().equals(here) && m.host().equals("local")
                && "sum".equals(m.labels().get("stream"))).findFirst().orElseThrow().value();
        assertThat(summed).isCloseTo(perStream, org.assertj.core.api.Assertions.within(1e-9));
    }

    @ParameterizedTest(name = "UDP reverse={0}")
    @CsvSource({"false", "true"})
    void udpEveryStreamsSentIsReceivedPlusLostAndNoStreamSeesAnothersDatagrams(boolean reverse) throws Exception {
        // 30 Mbit/s for the whole session: 10 Mbit/s a stream
        TransferSpec spec = AgentStreamTest.spec(agent, Protocol.UDP).rateBitsPerSecond(30_000_000L).build();
        RemoteParallelResult r = run(spec, reverse, 3, new AtomicIntegerArray(3));

        long sent = 0;
        long received = 0;
        long lost = 0;
        for (RemoteStreamResult s : r.streams()) {
            UdpStats u = s.transfer().udp().orElseThrow();
            assertThat(u.datagramsSent()).isEqualTo(u.datagramsReceived() + u.lost()).isPositive();
            // each stream has its own sockets and stream id: none of another's datagrams arrive on it
            assertThat((s.local().sender() ? s.remote() : s.local()).foreign()).isZero();
            // a third of the rate: 10 000 000 bit/s each
            assertThat(((TransferSpec) s.transfer().spec()).rateBitsPerSecond()).isEqualTo(10_000_000L);
            sent += u.datagramsSent();
            received += u.datagramsReceived();
            lost += u.lost();
        }
        long[] sum = r.udpSum().orElseThrow();
        assertThat(sum).containsExactly(sent, received, lost);
        assertThat(sum[0]).isEqualTo(sum[1] + sum[2]);
    }

    @Test
    void moreStreamsThanTheAgentAllowsAreRefusedNamingTheLimit() {
        assertThatThrownBy(() -> run(AgentStreamTest.spec(agent, Protocol.TCP).build(), false, 4,
                new AtomicIntegerArray(4)))
                .isInstanceOf(TransferException.class)
                .hasMessageContaining("4 parallel streams are out of range; this agent allows 1..3 (--max-streams)");
    }

    @Test
    void streamsOutsideOneTo128AreRefusedNamingTheValue() {
        assertThatThrownBy(() -> new RemoteOptions(Optional.empty(), false, 0))
                .hasMessage("parallel streams 0 is out of range; allowed: 1..128");
        assertThatThrownBy(() -> new RemoteOptions(Optional.empty(), false, 129))
                .hasMessage("parallel streams 129 is out of range; allowed: 1..128");
        assertThatThrownBy(() -> new AgentLimits(8, Duration.ofMinutes(1), 0, 1 << 20, 0))
                .hasMessage("max streams 0 is out of range; allowed: 1..128");
    }

    @Test
    void theRateIsTheWholeSessionsAndEachStreamSendsItsShare() {
        TransferSpec spec = AgentStreamTest.spec(agent, Protocol.UDP).rateBitsPerSecond(10_000_001L).build();
        // 10 000 001 / 3 = 3 333 333 remainder 2, which stream 0 sends: 3 333 335 + 2 x 3 333 333 = 10 000 001
        assertThat(ParallelEnds.streamSpec(spec, 0, 3).rateBitsPerSecond()).isEqualTo(3_333_335L);
        assertThat(ParallelEnds.streamSpec(spec, 1, 3).rateBitsPerSecond()).isEqualTo(3_333_333L);
        assertThat(ParallelEnds.streamSpec(spec, 2, 3).rateBitsPerSecond()).isEqualTo(3_333_333L);
        assertThat(ParallelEnds.streamSpec(spec, 2, 3).streamId()).isEqualTo(spec.streamId() + 2);
    }

    @Test
    void a128StreamReverseTcpRunFitsItsResultMessageAndSaysWhichStreamsLostTheirTcpInfo() throws Exception {
        agent.close();
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                new AgentLimits(8, Duration.ofMinutes(1), 0, 1 << 20, 128), Duration.ofSeconds(30)));
        TransferSpec spec = AgentStreamTest.spec(agent, Protocol.TCP).duration(Duration.ofMillis(200)).build();

        RemoteParallelResult r = run(spec, true, 128, new AtomicIntegerArray(128));

        // the result message of 128 senders with tcp_info passed 64 KiB: the run still ends with every stream
        assertThat(r.streams()).hasSize(128);
        int without = 0;
        for (RemoteStreamResult s : r.streams()) {
            assertThat(s.remote().bytes()).isEqualTo(s.local().bytes());
            if (s.transfer().tcp().isEmpty()) {
                without++;
                assertThat(s.transfer().tcpUnavailable()).as("stream %s", s).startsWith("the agent left this "
                        + "stream's TCP_INFO out: the agent's result message would pass the control connection's limit");
            }
        }
        // where the agent's transport reads TCP_INFO, some streams keep theirs; where it cannot, none has any
        assertThat(without).isBetween(1, 128);
    }
}
