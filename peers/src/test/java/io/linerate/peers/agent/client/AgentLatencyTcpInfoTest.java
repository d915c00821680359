package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.RrResult;
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

/**
 * TCP ping-pong and request/response with an agent in this JVM over 127.0.0.1 (the native module,
 * on the test class path, reads both ends through sock_diag): the agent's end's {@code TCP_INFO}
 * comes back in its result and fills the result's server end; this host's end is read here.
 */
@Timeout(60)
class AgentLatencyTcpInfoTest {
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

    private Endpoint peer() {
        return Endpoint.remote("127.0.0.1", agent.address().getPort());
    }

    private RemoteOptions options() {
        return new RemoteOptions(Optional.of(AgentStreamTest.SECRET), false);
    }

    @Test
    void tcpPingPongCarriesTheAgentsEchoSocketFiguresAndThisHostsOwn() throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(32, 64))
                .policy(AgentLatencyTest.SHORT).timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RemotePingPongResult r;
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), options())) {
            r = (RemotePingPongResult) m.run();
        }

        LatencyTcpInfo info = r.local().tcpInfo().orElseThrow();
        TcpStats client = info.client().stats().orElseThrow();
        TcpStats server = info.server().stats().orElseThrow();
        assertThat(info.server().source()).contains("agent");
        // the MSS this host read from its socket when it connected is a floor: on loopback the kernel
        // bounds a segment to half the peer's largest window, which grows later (TwoHostsAgentTest
        // checks the exact MSS across a 1500-byte veth)
        TcpMss.Read read = r.local().options().tcpMss().flatMap(TcpMss::read).orElseThrow();
        assertThat(client.senderMss()).isGreaterThanOrEqualTo(read.senderBytes());
        assertThat(server.senderMss()).isPositive();
        for (TcpStats t : List.of(client, server)) {
            assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
            assertThat(t.rttMicros()).isPositive();
        }
        assertThat(r.detailJson().toString()).contains("\"tcp_info\":{\"client\":{").contains("\"server\":{")
                .doesNotContain("tcp_info_unavailable");
    }

    @Test
    void tcpRequestResponseCarriesTheAgentsServerFiguresSummedOverItsConnections() throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(100).responseBytes(200).warmup(Duration.ofMillis(50))
                .duration(Duration.ofMillis(200)).timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RrResult r;
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), options())) {
            r = (RrResult) m.run();
        }

        LatencyTcpInfo info = r.tcpInfo().orElseThrow();
        TcpStats client = info.client().stats().orElseThrow();
        TcpStats server = info.server().stats().orElseThrow();
        assertThat(info.server().source()).contains("agent");
        for (TcpStats t : List.of(client, server)) {
            assertThat(t.windowRetransmits()).isBetween(0L, t.totalRetransmits());
            assertThat(t.rttMicros()).isPositive();
            assertThat(t.senderMss()).isPositive();
        }
    }

    @Test
    void udpPingPongHasNoTcpInfo() throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(32))
                .policy(AgentLatencyTest.SHORT).timeout(Duration.ofSeconds(5)).endpoint(peer()).build();
        RemotePingPongResult r;
        try (RemoteLatency m = RemoteLatency.of(spec, Clock.system(), options())) {
            r = (RemotePingPongResult) m.run();
        }

        assertThat(r.local().tcpInfo()).isEmpty();
        assertThat(r.detailJson().toString()).doesNotContain("tcp_info");
    }
}
