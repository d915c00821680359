package io.linerate.peers.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RrResult;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.PeerProtocols;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.agent.client.AgentStreamTest;
import io.linerate.peers.agent.client.RemoteLatency;
import io.linerate.peers.agent.client.RemoteOptions;
import io.linerate.peers.agent.client.RemotePingPongResult;
import io.linerate.peers.agent.client.RemoteStreamResult;
import io.linerate.peers.agent.client.RemoteStreamTransfer;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The agent's ends run on the ends a transport offers through core's SPI, not on one transport's
 * classes: the agent's on the transport its config names, this host's on the transport the spec was
 * selected with. The lending transport ({@link LendingTransports}) lends NIO's ends and writes down
 * each one it opened, so each run shows on which side the transport's ends were used.
 */
@Timeout(60)
class AgentEndsTest {
    private static final Optional<byte[]> SECRET = Optional.of(AgentStreamTest.SECRET);
    /** At most 100 round trips per size after 20, within 50..300 ms: short on a busy host. */
    private static final IterationPolicy SHORT = new IterationPolicy(Duration.ofMillis(50), Duration.ofMillis(300), 20,
            100, Duration.ZERO, 0);

    private static AgentConfig config() {
        return new AgentConfig(InetAddress.getLoopbackAddress(), 0, SECRET, AgentLimits.defaults(), Duration.ofSeconds(5));
    }

    private static PeerEnds nio() {
        return Transports.byName("nio").peerEnds().orElseThrow();
    }

    private static PingPongSpec pingPong(Agent a, PingPongProtocol p) {
        return PingPongSpec.builder().protocol(p).sizes(List.of(48)).policy(SHORT)
                .timeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("127.0.0.1", a.address().getPort())).build();
    }

    @BeforeEach
    void forget() {
        LendingTransports.Lending.OPENED.clear();
    }

    @Test
    void theAgentRunsItsEndsOnTheTransportItsConfigNames() throws Exception {
        try (Agent a = Agent.start(config().withTransport(LendingTransports.Lending.NAME))) {
            RemoteStreamResult stream;
            try (RemoteStreamTransfer t = RemoteStreamTransfer.open(AgentStreamTest.spec(a, Protocol.TCP).build(),
                    Clock.system(), new RemoteOptions(SECRET, false), nio())) {
                stream = t.runBothEnds(IntervalListener.NONE);
            }
            RemotePingPongResult udp;
            try (RemoteLatency m = RemoteLatency.of(pingPong(a, PingPongProtocol.UDP), Clock.system(),
                    new RemoteOptions(SECRET, false), nio())) {
                udp = (RemotePingPongResult) m.run();
            }
            RrSpec rr = RrSpec.builder().flows(1).requestBytes(64).responseBytes(128).warmup(Duration.ofMillis(50))
                    .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5))
                    .endpoint(Endpoint.remote("127.0.0.1", a.address().getPort())).build();
            RrResult served;
            try (RemoteLatency m = RemoteLatency.of(rr, Clock.system(), new RemoteOptions(SECRET, false), nio())) {
                served = (RrResult) m.run();
            }

            // the agent's ends, in the order the runs came; this host's were NIO's own, not lent
            assertThat(LendingTransports.Lending.OPENED).containsExactly("listenTcp", "echo", "rrServer");
            assertThat(stream.remote().bytes()).isPositive().isEqualTo(stream.local().bytes());
            assertThat(udp.agentEchoes()).isPositive().isEqualTo(udp.local().roundTrips());
            assertThat(udp.agentEchoedBytes()).isEqualTo(48L * udp.local().roundTrips());
            assertThat(served.completed()).isPositive().isLessThanOrEqualTo(served.served());
        }
    }

    @Test
    void thisHostRunsItsEndsOnTheTransportTheSpecWasSelectedWith() throws Exception {
        Transport lending = Transports.byName(LendingTransports.Lending.NAME);
        // on loopback an agent may serve without a secret, which Endpoint.remote does not carry
        try (Agent a = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            Endpoint at = Endpoint.remote("127.0.0.1", a.address().getPort());
            PeerProtocol agent = PeerProtocols.of(at).orElseThrow();
            TransferSpec udp = AgentStreamTest.spec(a, Protocol.UDP).rateBitsPerSecond(10_000_000).build();
            assertThat(agent.unsupportedReason(udp, lending)).isEmpty();
            TransferResult stream;
            try (Transfer t = (Transfer) agent.open(udp, Clock.system(), lending)) {
                stream = t.run();
            }
            RemotePingPongResult tcp;
            try (var m = agent.open(pingPong(a, PingPongProtocol.TCP), Clock.system(), lending)) {
                tcp = (RemotePingPongResult) m.run();
            }
            RrSpec rr = RrSpec.builder().flows(1).requestBytes(64).responseBytes(128).warmup(Duration.ofMillis(50))
                    .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5)).endpoint(at).build();
            RrResult served;
            try (var m = agent.open(rr, Clock.system(), lending)) {
                served = (RrResult) m.run();
            }

            // this host's ends, in the order the runs came; the agent's were its default transport's
            assertThat(LendingTransports.Lending.OPENED).containsExactly("bindUdp", "pingPongClient", "runRr");
            // UDP: the agent received whole 1200 B datagrams, never more than this host sent
            assertThat(stream.messagesSent()).isPositive();
            assertThat(stream.bytesSent()).isEqualTo(1200L * stream.messagesSent());
            assertThat(stream.bytesReceived()).isLessThanOrEqualTo(stream.bytesSent());
            assertThat(stream.bytesReceived() % 1200).isZero();
            assertThat(tcp.agentEchoedBytes()).isPositive().isEqualTo(48L * tcp.local().roundTrips());
            assertThat(served.completed()).isPositive().isLessThanOrEqualTo(served.served());
        }
    }

    @Test
    void anAgentIsRefusedATransportThatOffersNoEndsAndSaysWhichDo() {
        assertThatThrownBy(() -> Agent.start(config().withTransport(LendingTransports.Endless.NAME)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("the endless transport offers no ends for a peer's run")
                .hasMessageContaining("transports that offer them: ")
                .hasMessageContaining("nio")
                .hasMessageContaining(LendingTransports.Lending.NAME);
        assertThatThrownBy(() -> Agent.start(config().withTransport("carrier-pigeon")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no transport named 'carrier-pigeon'");
        assertThatThrownBy(() -> config().withTransport(" ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
    }

    @Test
    void theAgentsProtocolRefusesASpecOnATransportThatOffersNoEnds() {
        TransferSpec spec = TransferSpec.builder().duration(Duration.ofSeconds(1))
                .endpoint(Endpoint.remote("127.0.0.1", 1)).build();
        PeerProtocol agent = PeerProtocols.of(spec.endpoint()).orElseThrow();
        assertThat(agent.unsupportedReason(spec, Transports.byName(LendingTransports.Endless.NAME))).hasValueSatisfying(r ->
                assertThat(r).startsWith("the endless transport offers no ends for a peer's run, so this host's ends "
                        + "with linerate's agent cannot run on it; transports that offer them: "));
        assertThat(agent.unsupportedReason(spec, Transports.byName("nio"))).isEmpty();
    }
}
