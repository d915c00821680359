package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RrResult;
import io.linerate.nio.NioTransport;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Ping-pong and request/response between this JVM and an agent in it, over 127.0.0.1. */
@Timeout(60)
class AgentLatencyTest {
    /** At most 100 round trips per size after 20, within 50..300 ms: short on a busy host. */
    static final IterationPolicy SHORT = new IterationPolicy(Duration.ofMillis(50), Duration.ofMillis(300), 20, 100,
            Duration.ZERO, 0);
    private Agent agent;

    @BeforeEach
    void start() throws Exception {
        agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)));
    }

    @AfterEach
    void stop() {
        agent.close();
    }

    Endpoint peer() {
        return Endpoint.remote("127.0.0.1", agent.address().getPort());
    }

    RemotePingPongResult pingPong(PingPongProtocol p) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(p).sizes(List.of(32, 64)).policy(SHORT)
                .timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), new RemoteOptions(Optional.of(AgentStreamTest.SECRET),
                false))) {
            return (RemotePingPongResult) m.run();
        }
    }

    @Test
    void tcpPingPongTheAgentEchoedEveryRoundTripThisHostCounted() throws Exception {
        RemotePingPongResult r = pingPong(PingPongProtocol.TCP);

        long trips = r.local().roundTrips();
        assertThat(trips).isPositive();
        // the bytes of every round trip by hand: 32 B per trip of the first size, 64 B of the second
        long sent = 32L * r.local().sizes().get(0).roundTrips() + 64L * r.local().sizes().get(1).roundTrips();
        assertThat(r.agentEchoedBytes()).isEqualTo(sent);
        // a 32 or 64 B message is one segment, sent only after the previous answer came back: it
        // arrives in one piece, so the agent answers one read per round trip
        assertThat(r.agentEchoes()).isEqualTo(trips);
        assertThat(r.invalidReasons()).isEmpty();
        assertThat(r.detailJson().toString()).contains("\"remote\"");
    }

    @Test
    void udpPingPongTheAgentEchoedOneDatagramPerRoundTrip() throws Exception {
        RemotePingPongResult r = pingPong(PingPongProtocol.UDP);

        assertThat(r.local().roundTrips()).isPositive();
        assertThat(r.agentEchoes()).isEqualTo(r.local().roundTrips());
        long sent = 32L * r.local().sizes().get(0).roundTrips() + 64L * r.local().sizes().get(1).roundTrips();
        assertThat(r.agentEchoedBytes()).isEqualTo(sent);
        assertThat(r.invalidReasons()).isEmpty();
    }

    @Test
    void requestResponseCompletesNoMoreTransactionsThanTheAgentServed() throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(100).responseBytes(200).warmup(Duration.ofMillis(50))
                .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RrResult r;
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), new RemoteOptions(Optional.of(AgentStreamTest.SECRET),
                false))) {
            r = (RrResult) m.run();
        }

        assertThat(r.completed()).isPositive();
        // a transaction completes when its response has arrived, which the agent wrote first
        assertThat(r.completed()).isLessThanOrEqualTo(r.served());
        // one connection per flow, 2 flows
        assertThat(r.accepts()).isEqualTo(2);
    }

    @Test
    void anAgentRefusesMoreRequestResponseFlowsThanItsMaxStreams() throws Exception {
        try (Agent two = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                new AgentLimits(8, Duration.ofMinutes(10), 0, 1 << 20, 2), Duration.ofSeconds(5)))) {
            RrSpec spec = RrSpec.builder().flows(3).warmup(Duration.ZERO).duration(Duration.ofMillis(200))
                    .timeout(Duration.ofSeconds(5)).endpoint(Endpoint.remote("127.0.0.1", two.address().getPort())).build();
            try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), RemoteOptions.defaults())) {
                assertThatThrownBy(m::run).hasMessageContaining(
                        "3 request/response flows are out of range; this agent allows 1..2 (--max-streams), one "
                                + "connection each");
            }
        }
    }

    @Test
    void theTransportRunsARemotePingPongWithoutASecretAgainstAnAgentThatAsksNone() throws Exception {
        try (Agent open = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            PingPongSpec spec = PingPongSpec.builder().sizes(List.of(16)).policy(SHORT).timeout(Duration.ofSeconds(5))
                    .endpoint(Endpoint.remote("127.0.0.1", open.address().getPort())).build();
            try (var m = new NioTransport().open(spec, Clock.system())) {
                RemotePingPongResult r = (RemotePingPongResult) m.run();
                assertThat(r.agentEchoedBytes()).isEqualTo(16L * r.local().roundTrips());
            }
        }
    }
}
