package io.linerate.peers.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Affinity;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.cpu.CpuList;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemoteBidirResult;
import io.linerate.peers.agent.client.RemoteParallelResult;
import io.linerate.peers.agent.client.RemotePingPongResult;
import io.linerate.peers.agent.client.RemoteStreamResult;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.internal.PeerEndsLookup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.BitSet;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The agent's ends on the native transport ({@code serve --transport native}): a TCP stream whose
 * two ends are native sockets, one in the agent and one on this host's side, with the MSS each end
 * read from its socket ({@code TCP_MAXSEG}); UDP streams; a TCP and a UDP ping-pong and
 * request/response (TCP_RR, TCP_CRR) whose agent's end is native and this host's nio; and a
 * unix_datagram ping-pong, which cannot cross hosts, refused naming the protocol.
 */
@Timeout(60)
class NativeAgentEndsTest {
    private static final String NATIVE = "native";
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        Transport t = Transports.byName(NATIVE);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the native transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)).withTransport(NATIVE));
    }

    @AfterEach
    void stop() {
        if (agent != null) {
            agent.close();
        }
    }

    private AgentPeer peer(PeerDirection d) {
        return AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .secret(PeerSecret.of(AgentStreamTest.SECRET)).direction(d).build();
    }

    private TransferSpec tcp(PeerDirection d) {
        return TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4).payloadBytes(64 * 1024)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).interval(Duration.ofMillis(100))
                .ioTimeout(Duration.ofSeconds(5)).endpoint(peer(d)).build();
    }

    private static Object run(Transport t, MeasurementSpec spec) throws Exception {
        assertThat(t.unsupportedReason(spec)).isEmpty();
        try (Measurement m = t.open(spec, Clock.system())) {
            return m.run();
        }
    }

    private static TransferResult stream(PeerDirection d, NativeAgentEndsTest test) throws Exception {
        Object r = run(Transports.byName(NATIVE), test.tcp(d));
        assertThat(r).isInstanceOf(RemoteStreamResult.class);
        RemoteStreamResult both = (RemoteStreamResult) r;
        TransferResult t = both.transfer();
        // the receiver counted every byte the sender sent: TCP delivers the stream whole, in order
        assertThat(t.bytesSent()).isPositive();
        assertThat(t.bytesReceived()).isEqualTo(t.bytesSent());
        assertThat(both.local().bytes()).isEqualTo(both.remote().bytes());
        assertThat(t.invalidReasons()).isEmpty();
        return t;
    }

    /** @return the MSS as read at both ends, each from its own socket */
    private static TcpMss.Read readAtBothEnds(TransferResult t) {
        TcpMss mss = t.options().tcpMss().orElseThrow();
        assertThat(mss.read()).as(mss.derivation()).isPresent();
        TcpMss.Read read = mss.read().orElseThrow();
        assertThat(read.how()).isEqualTo("TCP_MAXSEG");
        assertThat(mss.derivation()).startsWith("read: TCP_MAXSEG ");
        // loopback's MTU is 65536 (Linux): no segment carries more than 65536 - 20 IPv4 - 20 TCP bytes of payload
        assertThat(read.senderBytes()).isBetween(1, 65536 - 40);
        assertThat(read.receiverBytes()).isBetween(1, 65536 - 40);
        return read;
    }

    @Test
    void aForwardStreamRunsOnNativeSocketsAtBothEndsWithThisHostsTcpInfo() throws Exception {
        TransferResult t = stream(PeerDirection.FORWARD, this);

        TcpMss.Read read = readAtBothEnds(t);
        // this host sends: its socket's TCP_INFO is in the result, and tcpi_snd_mss is what TCP_MAXSEG gave
        assertThat(t.tcp()).hasValueSatisfying(s -> {
            assertThat(s.senderMss()).isEqualTo(read.senderBytes());
            assertThat(s.receiverMss()).isEqualTo(-1L);
            assertThat(s.windowRetransmits()).isBetween(0L, s.totalRetransmits());
        });
    }

    @Test
    void aReverseStreamRunsOnNativeSocketsAtBothEnds() throws Exception {
        TransferResult t = stream(PeerDirection.REVERSE, this);

        readAtBothEnds(t);
        // the agent sends: its socket's TCP_INFO came back over the control connection, and its
        // tcpi_snd_mss is the sender's MSS the agent read with TCP_MAXSEG
        TcpMss.Read read = t.options().tcpMss().orElseThrow().read().orElseThrow();
        assertThat(t.tcp()).hasValueSatisfying(s -> {
            assertThat(s.senderMss()).isEqualTo(read.senderBytes());
            assertThat(s.receiverMss()).isEqualTo(-1L);
            assertThat(s.windowRetransmits()).isBetween(0L, s.totalRetransmits());
        });
    }

    @Test
    void bothDirectionsAtOnceAndParallelStreamsRunOnNativeSockets() throws Exception {
        TransferSpec both = tcp(PeerDirection.FORWARD).toBuilder().endpoint(peer(PeerDirection.BOTH)).build();
        RemoteBidirResult bidir = (RemoteBidirResult) run(Transports.byName(NATIVE), both);
        for (RemoteStreamResult each : List.of(bidir.forward(), bidir.reverse())) {
            assertThat(each.transfer().bytesSent()).isPositive().isEqualTo(each.transfer().bytesReceived());
            readAtBothEnds(each.transfer());
        }

        TransferSpec three = tcp(PeerDirection.FORWARD).toBuilder().endpoint(
                AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                        .secret(PeerSecret.of(AgentStreamTest.SECRET)).streams(3).build()).build();
        RemoteParallelResult parallel = (RemoteParallelResult) run(Transports.byName(NATIVE), three);
        assertThat(parallel.streams()).hasSize(3).allSatisfy(each -> {
            assertThat(each.transfer().bytesSent()).isPositive().isEqualTo(each.transfer().bytesReceived());
            assertThat(each.transfer().tcp()).isPresent();
        });
    }

    @ParameterizedTest
    @EnumSource(value = PeerDirection.class, names = {"FORWARD", "REVERSE"})
    void aStreamWithSendfileAndMsgTruncRunsThroughTheAgentAndCountsEveryByte(PeerDirection d) throws Exception {
        TransferSpec spec = tcp(d).toBuilder().io(new StreamIo(0, false, true, true)).build();
        RemoteStreamResult both = (RemoteStreamResult) run(Transports.byName(NATIVE), spec);

        // the sender sent from its payload file, the receiver dropped the bytes: TCP still delivered them all
        TransferResult t = both.transfer();
        assertThat(t.bytesSent()).isPositive();
        assertThat(t.bytesReceived()).isEqualTo(t.bytesSent());
        assertThat(both.local().bytes()).isEqualTo(both.remote().bytes());
        assertThat(t.invalidReasons()).isEmpty();
        // whichever end the agent ran, it made the calls asked for and said so
        DataPath p = t.dataPath().orElseThrow();
        assertThat(p.sender().call()).isEqualTo("sendfile(2)");
        assertThat(p.receiver().call()).isEqualTo("recv(2) with MSG_TRUNC");
        assertThat(p.sender().calls()).isPositive();
        assertThat(p.receiver().calls()).isPositive();
        assertThat(p.payloadNote()).startsWith("payload not checked");
    }

    @Test
    void anAgentOnNioRefusesMsgTruncNamingTheNativeTransport() throws Exception {
        try (Agent onNio = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0,
                Optional.of(AgentStreamTest.SECRET), AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            // forward: the agent receives, so --skip-rx-copy is its to run
            TransferSpec spec = tcp(PeerDirection.FORWARD).toBuilder().io(new StreamIo(0, false, false, true))
                    .endpoint(AgentPeer.builder(Endpoint.remote("127.0.0.1", onNio.address().getPort()))
                            .secret(PeerSecret.of(AgentStreamTest.SECRET)).build()).build();
            Transport t = Transports.byName(NATIVE);
            assertThat(t.unsupportedReason(spec)).isEmpty();

            assertThatThrownBy(() -> {
                try (Measurement m = t.open((MeasurementSpec) spec, Clock.system())) {
                    m.run();
                }
            }).hasMessageContaining("skip-rx-copy (MSG_TRUNC) is not on the nio transport's receiving end")
                    .hasMessageContaining("serve --transport native");
        }
    }

    @Test
    void theNativeTransportOffersTheAgentItsEnds() {
        assertThat(PeerEndsLookup.named(NATIVE).transport()).isEqualTo(NATIVE);
    }

    /** 200 measured round trips per size, no warm-up: the sweep runs exactly that many, whatever the time. */
    private static final IterationPolicy EXACTLY_200 = new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 200,
            200, Duration.ZERO, 0);

    private PingPongSpec pingPong(PingPongProtocol p) {
        return PingPongSpec.builder().protocol(p).sizes(List.of(32, 64)).policy(EXACTLY_200)
                .timeout(Duration.ofSeconds(5)).endpoint(peer(PeerDirection.FORWARD)).build();
    }

    @ParameterizedTest
    @EnumSource(value = PingPongProtocol.class, names = {"TCP", "UDP"})
    void aPingPongIsEchoedByTheAgentOnNativeSockets(PingPongProtocol p) throws Exception {
        // this host's measuring end is nio's (the default); the agent's echo end is native
        RemotePingPongResult r = (RemotePingPongResult) run(Transports.byName("nio"), pingPong(p));

        PingPongResult local = r.local();
        assertThat(local.sizes()).extracting(PingPongResult.SizeCounts::sizeBytes).containsExactly(32, 64);
        assertThat(local.sizes()).allSatisfy(c -> {
            assertThat(c.measured()).isEqualTo(200);
            assertThat(c.roundTrips()).isEqualTo(200);
        });
        assertThat(local.roundTrips()).isEqualTo(2 * 200);
        // a 32 or 64 B message goes only after the previous answer came back: one datagram, or one
        // segment read whole, per round trip
        assertThat(r.agentEchoes()).isEqualTo(2 * 200);
        assertThat(r.agentEchoedBytes()).isEqualTo(200L * 32 + 200L * 64);
        assertThat(r.invalidReasons()).isEmpty();
        if (p == PingPongProtocol.TCP) {
            TcpMss mss = local.options().tcpMss().orElseThrow();
            assertThat(mss.read()).as(mss.derivation()).isPresent();
            assertThat(mss.derivation()).startsWith("read: ");
            assertThat(mss.bytes()).isBetween(1, 65536 - 40);
            // the agent read its native echo socket's TCP_INFO (getsockopt) and sent it back
            TcpStats far = local.tcpInfo().orElseThrow().server().stats()
                    .orElseThrow(() -> new AssertionError(local.tcpInfo().get().server().unavailable()));
            assertThat(far.windowRetransmits()).isBetween(0L, far.totalRetransmits());
            assertThat(far.rttMicros()).isPositive();
            assertThat(far.senderMss()).isBetween(1L, 65536L - 40);
        } else {
            assertThat(local.options().tcpMss()).isEmpty();
            assertThat(local.tcpInfo()).isEmpty();
        }
    }

    @Test
    void theAgentsEchoThreadRunsOnTheServerCpuOfAffinity() throws Exception {
        assumeTrue(ThreadAffinity.unavailabilityCause().isEmpty(), () -> "no thread can be pinned here: "
                + ThreadAffinity.unavailabilityCause().orElseThrow());
        // the highest CPU this thread may run on, which the agent's echo thread (in this JVM) may run on too
        BitSet allowed = CpuList.parse(Files.readAllLines(Path.of("/proc/thread-self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow()
                .substring("Cpus_allowed_list:".length()).strip());
        int server = allowed.length() - 1;
        PingPongSpec spec = pingPong(PingPongProtocol.TCP).toBuilder().affinity(Affinity.parse("any;" + server)).build();

        RemotePingPongResult r = (RemotePingPongResult) run(Transports.byName("nio"), spec);

        // the agent read its echo thread's CPU set back once pinned, and sent it with its counts
        assertThat(r.local().report().affinity().orElseThrow().server()).contains(Integer.toString(server));
        assertThat(r.local().roundTrips()).isEqualTo(2 * 200);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void requestResponseIsServedByTheAgentOnNativeSockets(boolean crr) throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).crr(crr).requestBytes(100).responseBytes(200)
                .warmup(Duration.ofMillis(50)).duration(Duration.ofMillis(300)).timeout(Duration.ofSeconds(5))
                .endpoint(peer(PeerDirection.FORWARD)).build();

        RrResult r = (RrResult) run(Transports.byName("nio"), spec);

        assertThat(r.remote()).isTrue();
        assertThat(r.completed()).isPositive();
        // a transaction completes when its response has arrived, which the agent wrote in full first
        assertThat(r.completed()).isLessThanOrEqualTo(r.served());
        if (crr) {
            // a connection per transaction: every response the agent wrote went on a connection of its own
            assertThat(r.accepts()).isEqualTo(r.served());
        } else {
            assertThat(r.accepts()).isEqualTo(2);
        }
        assertThat(r.invalidReasons()).isEmpty();
        assertThat(r.report().notes()).anySatisfy(n -> assertThat(n).startsWith("tcp mss ").contains("(read: "));
        LatencyTcpInfo.End far = r.tcpInfo().orElseThrow().server();
        if (crr) {
            assertThat(far.unavailable()).contains("a connection per transaction");
        } else {
            // the agent read each native connection's TCP_INFO as its flow closed it, and summed them
            TcpStats t = far.stats().orElseThrow(() -> new AssertionError(far.unavailable()));
            assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
            assertThat(t.rttMicros()).isPositive();
            assertThat(t.senderMss()).isBetween(1L, 65536L - 40);
        }
    }

    @Test
    void aUnixDatagramPingPongThroughTheAgentIsRefusedNamingTheProtocol() throws Exception {
        PingPongSpec spec = pingPong(PingPongProtocol.TCP).toBuilder().protocol(PingPongProtocol.UNIX_DATAGRAM).build();
        // this host refuses it before any connection, naming the protocol
        assertThat(Transports.byName("nio").unsupportedReason(spec)).hasValueSatisfying(r -> assertThat(r)
                .contains("unix_datagram"));

        // a client that asks all the same is refused by the native agent, naming the protocol
        InetAddress lo = InetAddress.getLoopbackAddress();
        try (Agent open = Agent.start(new AgentConfig(lo, 0, Optional.empty(), AgentLimits.defaults(),
                Duration.ofSeconds(5)).withTransport(NATIVE));
             Control c = new Control(new Socket(lo, open.address().getPort()), 10_000)) {
            c.expect("hello");
            ObjectNode wire = LatencySpecJson.pingPong(pingPong(PingPongProtocol.TCP)).put("protocol", "unix_datagram");
            ObjectNode req = Control.message("pingpong");
            req.set("spec", wire);
            c.send(req);
            assertThat(c.expect("refused").get("reason").asText()).isEqualTo("spec refused: ping-pong protocol "
                    + "unix_datagram does not cross hosts; allowed: tcp, udp");
        }
        // and the native ends for peers refuse it too, should another peer protocol ask
        assertThatThrownBy(() -> PeerEndsLookup.named(NATIVE).echo(spec, lo))
                .isInstanceOf(IOException.class)
                .hasMessage("a ping-pong echo end with a peer runs tcp or udp, not unix_datagram: a Unix-domain socket "
                        + "does not cross hosts");
    }

    @ParameterizedTest
    @EnumSource(value = PeerDirection.class, names = {"FORWARD", "REVERSE"})
    void aUdpStreamRunsOnNativeSocketsAtBothEnds(PeerDirection d) throws Exception {
        TransferSpec udp = tcp(d).toBuilder().protocol(Protocol.UDP).payloadBytes(1200).rateBitsPerSecond(10_000_000)
                .build();

        Object r = run(Transports.byName(NATIVE), udp);

        TransferResult t = ((RemoteStreamResult) r).transfer();
        // whole 1200 B datagrams, every one the receiver counted sent by the sender
        assertThat(t.messagesSent()).isPositive();
        assertThat(t.bytesSent()).isEqualTo(1200L * t.messagesSent());
        assertThat(t.bytesReceived()).isPositive().isLessThanOrEqualTo(t.bytesSent());
        assertThat(t.bytesReceived() % 1200).isZero();
        assertThat(t.udp()).hasValueSatisfying(u -> {
            assertThat(u.datagramsReceived()).isPositive().isLessThanOrEqualTo(u.datagramsSent());
            assertThat(u.lost()).isEqualTo(u.datagramsSent() - u.datagramsReceived());
        });
        assertThat(t.options().tcpMss()).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(value = PeerDirection.class, names = {"FORWARD", "REVERSE"})
    void aUdpStreamWithGsoRunsThroughTheAgentAndNamesBothEndsCalls(PeerDirection d) throws Exception {
        TransferSpec udp = tcp(d).toBuilder().protocol(Protocol.UDP).payloadBytes(1200).rateBitsPerSecond(10_000_000)
                .io(new StreamIo(0, true, false, false)).build();

        TransferResult t = ((RemoteStreamResult) run(Transports.byName(NATIVE), udp)).transfer();

        assertThat(t.bytesSent()).isPositive().isEqualTo(1200L * t.messagesSent());
        assertThat(t.udp()).hasValueSatisfying(u -> {
            assertThat(u.datagramsReceived()).isPositive().isLessThanOrEqualTo(u.datagramsSent());
            assertThat(u.lost()).isEqualTo(u.datagramsSent() - u.datagramsReceived());
        });
        // whichever end the agent ran, it segmented or coalesced and said so
        DataPath p = t.dataPath().orElseThrow();
        assertThat(p.sender().call()).isEqualTo("sendmmsg(2) with UDP_SEGMENT (1200-byte segments)");
        assertThat(p.receiver().call()).startsWith("recvmmsg(2) with UDP_GRO");
        assertThat(p.sender().segments()).isEqualTo(t.messagesSent());
        assertThat(p.receiver().maxSegmentsPerCall()).isPositive();
        assertThat(t.invalidReasons()).isEmpty();
    }
}
