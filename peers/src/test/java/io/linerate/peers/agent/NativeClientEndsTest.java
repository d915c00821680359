package io.linerate.peers.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.AddressFamily;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemotePingPongResult;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.testsupport.OpenFds;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * This host's ends of a ping-pong and of request/response with linerate's agent on the native
 * transport ({@code pingpong --peer HOST --transport native}, {@code rr --peer HOST --transport
 * native}): the measuring end of a TCP or UDP ping-pong and the request/response flows on native
 * sockets, against an agent whose ends are native ({@code serve --transport native}) or nio's (the
 * default). Round trips and echoes are counted exactly, the MSS is read from this host's socket
 * ({@code TCP_MAXSEG}), and no descriptor is left open.
 */
@Timeout(60)
class NativeClientEndsTest {
    private static final String NATIVE = "native";
    /** 200 measured round trips per size, no warm-up: the sweep runs exactly that many, whatever the time. */
    private static final IterationPolicy EXACTLY_200 = new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 200,
            200, Duration.ZERO, 0);

    static Stream<Arguments> pingPongs() {
        return Stream.of("native", "nio").flatMap(agent -> Stream.of(Arguments.of(agent, PingPongProtocol.TCP, false),
                Arguments.of(agent, PingPongProtocol.UDP, false), Arguments.of(agent, PingPongProtocol.UDP, true)));
    }

    static Stream<Arguments> rrs() {
        return Stream.of("native", "nio").flatMap(agent -> Stream.of(Arguments.of(agent, false), Arguments.of(agent, true)));
    }

    private static Transport nativeTransport() {
        Transport t = Transports.byName(NATIVE);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the native transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        return t;
    }

    private static Agent agent(String transport) throws Exception {
        return Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)).withTransport(transport));
    }

    private static AgentPeer peer(Agent agent) {
        return AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                .secret(PeerSecret.of(AgentStreamTest.SECRET)).build();
    }

    private static Object run(Transport t, MeasurementSpec spec) throws Exception {
        assertThat(t.unsupportedReason(spec)).isEmpty();
        try (Measurement m = t.open(spec, Clock.system())) {
            return m.run();
        }
    }

    @ParameterizedTest(name = "agent {0}, {1}, connect {2}")
    @MethodSource("pingPongs")
    void aPingPongWithTheAgentRunsThisHostsEndOnNativeSockets(String agentTransport, PingPongProtocol p, boolean connect)
            throws Exception {
        Transport t = nativeTransport();
        // the agent joins its sessions as it closes: what is open after it was open before it
        Set<String> before = OpenFds.snapshot();
        RemotePingPongResult r;
        try (Agent agent = agent(agentTransport)) {
            PingPongSpec spec = PingPongSpec.builder().protocol(p).family(AddressFamily.IPV4).connect(connect)
                    .sizes(List.of(32, 64)).policy(EXACTLY_200).timeout(Duration.ofSeconds(5)).endpoint(peer(agent))
                    .build();
            r = (RemotePingPongResult) run(t, spec);
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
        PingPongResult local = r.local();
        assertThat(local.sizes()).extracting(PingPongResult.SizeCounts::sizeBytes).containsExactly(32, 64);
        assertThat(local.sizes()).allSatisfy(c -> {
            assertThat(c.measured()).isEqualTo(200);
            assertThat(c.roundTrips()).isEqualTo(200);
        });
        assertThat(local.roundTrips()).isEqualTo(2 * 200);
        // a message goes only after the previous answer came back: one datagram, or one small segment
        // read whole, per round trip, so the agent echoed each exactly once
        assertThat(r.agentEchoes()).isEqualTo(2 * 200);
        assertThat(r.agentEchoedBytes()).isEqualTo(200L * 32 + 200L * 64);
        assertThat(r.invalidReasons()).isEmpty();
        if (p == PingPongProtocol.TCP) {
            TcpMss mss = local.options().tcpMss().orElseThrow();
            TcpMss.Read read = mss.read().orElseThrow();
            assertThat(read.how()).isEqualTo("TCP_MAXSEG" + TcpMss.ONE_END);
            // loopback's MTU is 65536 (Linux): at most 65536 - 20 IPv4 - 20 TCP bytes of payload
            assertThat(mss.bytes()).isBetween(1, 65536 - 40);
            // this host's socket's TCP_INFO, read by getsockopt over the sizes' measured parts
            assertThat(local.tcpInfo().orElseThrow().client().stats()).hasValueSatisfying(tcp ->
                    assertThat(tcp.windowRetransmits()).isBetween(0L, tcp.totalRetransmits()));
        } else {
            assertThat(local.options().tcpMss()).isEmpty();
            assertThat(local.tcpInfo()).isEmpty();
        }
    }

    @ParameterizedTest(name = "agent {0}, crr {1}")
    @MethodSource("rrs")
    void requestResponseWithTheAgentRunsItsFlowsOnNativeSockets(String agentTransport, boolean crr) throws Exception {
        Transport t = nativeTransport();
        Set<String> before = OpenFds.snapshot();
        RrResult r;
        try (Agent agent = agent(agentTransport)) {
            RrSpec spec = RrSpec.builder().flows(2).crr(crr).requestBytes(100).responseBytes(200)
                    .warmup(Duration.ofMillis(50)).duration(Duration.ofMillis(300)).timeout(Duration.ofSeconds(5))
                    .endpoint(peer(agent)).build();
            r = (RrResult) run(t, spec);
        }
        assertThat(OpenFds.snapshot()).isEqualTo(before);
        assertThat(r.remote()).isTrue();
        assertThat(r.completed()).isPositive();
        // every flow stopped after reading its last response whole, before the agent stopped counting:
        // each response the agent wrote in full was one transaction here
        assertThat(r.served()).isEqualTo(r.completed());
        assertThat(r.accepts()).isEqualTo(crr ? r.completed() : 2);
        assertThat(r.invalidReasons()).isEmpty();
        String note = r.report().notes().stream().filter(n -> n.startsWith("tcp mss ")).findFirst().orElseThrow();
        int mss = Integer.parseInt(note.substring("tcp mss ".length(), note.indexOf(" B")));
        assertThat(mss).isBetween(1, 65536 - 40);
        assertThat(note).isEqualTo("tcp mss " + mss + " B (read: TCP_MAXSEG " + mss + " at this host's end)");
        // the flows' sockets' TCP_INFO, read by getsockopt at the window's edges; crr keeps no connection to read
        if (crr) {
            assertThat(r.tcpInfo().orElseThrow().client().stats()).isEmpty();
        } else {
            assertThat(r.tcpInfo().orElseThrow().client().stats()).hasValueSatisfying(tcp ->
                    assertThat(tcp.windowRetransmits()).isBetween(0L, tcp.totalRetransmits()));
        }
    }
}
