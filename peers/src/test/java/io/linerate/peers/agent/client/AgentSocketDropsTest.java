package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.AddressFamily;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A UDP stream with an agent in this JVM, both ends on one transport, reports the receiving
 * socket's drops: the agent's, sent in its result, where it receives; this host's own where it
 * receives ({@code --reverse}). Every datagram a receiving socket dropped is one that never
 * arrived, so the count is at most the stream's sent datagrams less its distinct arrivals, over
 * the whole stream.
 */
@Timeout(60)
@EnabledOnOs(OS.LINUX)
class AgentSocketDropsTest {

    static Stream<Arguments> runs() {
        return Stream.of("nio", "native").flatMap(t -> Stream.of(Arguments.of(t, PeerDirection.FORWARD),
                Arguments.of(t, PeerDirection.REVERSE)));
    }

    @ParameterizedTest
    @MethodSource("runs")
    void theReceivingSocketsDropsAreKnownAndNeverMoreThanTheStreamLost(String transport, PeerDirection d)
            throws Exception {
        Transport t = Transports.byName(transport);
        assumeTrue(t.unavailabilityCause().isEmpty(), () -> "the " + transport + " transport cannot load here: "
                + t.unavailabilityCause().orElseThrow());
        RemoteStreamResult r;
        AgentConfig config = new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.of(AgentStreamTest.SECRET),
                AgentLimits.defaults(), Duration.ofSeconds(5)).withTransport(transport);
        try (Agent agent = Agent.start(config)) {
            AgentPeer peer = AgentPeer.builder(Endpoint.remote("127.0.0.1", agent.address().getPort()))
                    .secret(PeerSecret.of(AgentStreamTest.SECRET)).direction(d).build();
            TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).family(AddressFamily.IPV4)
                    .payloadBytes(1200).rateBitsPerSecond(20_000_000).receiveBufferBytes(4096)
                    .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).interval(Duration.ofMillis(100))
                    .ioTimeout(Duration.ofSeconds(5)).endpoint(peer).build();
            try (Measurement m = t.open((MeasurementSpec) spec, Clock.system())) {
                r = (RemoteStreamResult) m.run();
            }
        }

        UdpStats u = r.transfer().udp().orElseThrow();
        boolean reverse = d == PeerDirection.REVERSE;
        long sent = (reverse ? r.remote() : r.local()).messages();
        long arrived = (reverse ? r.local() : r.remote()).messages();
        assertThat(u.receiverSocketDrops()).isBetween(0L, sent - arrived);
        assertThat(ResultJson.transfer(r.transfer()).toJson())
                .contains("\"receiver_socket_drops\":" + u.receiverSocketDrops());
    }
}
