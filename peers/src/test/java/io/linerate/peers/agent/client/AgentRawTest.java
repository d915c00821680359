package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.peers.agent.internal.wire.RawSpecJson;
import io.linerate.peers.agent.server.Agent;
import io.linerate.peers.agent.server.AgentConfig;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Raw frames through the agent where no raw transport is on the class path (peers and transport-nio alone):
 * the agent refuses with each provider's reason, and the agent's end travels as JSON whole.
 */
@Timeout(60)
class AgentRawTest {

    @Test
    void anAgentWithoutARawTransportRefusesNamingWhyEachProviderCannot() throws Exception {
        try (Agent agent = Agent.start(new AgentConfig(InetAddress.getLoopbackAddress(), 0, Optional.empty(),
                AgentLimits.defaults(), Duration.ofSeconds(5)))) {
            RawTransferSpec spec = RawTransferSpec.txOnly("lrt0a").peerInterface("eth1")
                    .endpoint(Endpoint.remote("127.0.0.1", agent.address().getPort())).build();
            // this module's class path holds the nio transport alone, which runs stream, ping-pong and rr
            assertThatThrownBy(() -> RemoteRaw.of(spec, Clock.system(), RemoteOptions.defaults()).run())
                    .isInstanceOf(TransferException.class)
                    .hasMessageContaining("raw frames cannot run on this agent: no transport can run this raw-frames spec")
                    .hasMessageContaining("nio: runs [");
        }
    }

    @Test
    void theAgentsEndRoundTripsThroughJson() {
        RawTransferSpec end = RawTransferSpec.txOnly("eth1").etherTypes(List.of(0x88b5, 0x88b6)).frameSize(200)
                .destinationMac(new byte[] {2, 0, 0, 0, 0, 1}).rateBitsPerSecond(20_000_000)
                .duration(Duration.ofMillis(1500)).warmup(Duration.ofMillis(300)).interval(Duration.ofMillis(500))
                .batch(8).txRing(true).idle(io.linerate.core.Idle.BACKOFF).build();
        com.fasterxml.jackson.databind.node.ObjectNode json = RawSpecJson.node(end);
        // the MAC as written by hand: six octets, lower-case hex, ':' between them
        assertThat(json.get("dst_mac").asText()).isEqualTo("02:00:00:00:00:01");
        RawTransferSpec back = RawSpecJson.read(json);
        assertThat(back.txInterface()).contains("eth1");
        assertThat(back.etherTypes()).containsExactly(0x88b5, 0x88b6);
        assertThat(back.destinationMac().orElseThrow()).containsExactly(2, 0, 0, 0, 0, 1);
        assertThat(back.duration()).isEqualTo(Duration.ofMillis(1500));
        assertThat(back.idle()).contains(io.linerate.core.Idle.BACKOFF);
        assertThat(back).usingRecursiveComparison().ignoringFields("destinationMac", "sourceMac").isEqualTo(end);
        assertThatThrownBy(() -> RawSpecJson.read(json.deepCopy().put("frame_size", 59)))
                .hasMessageContaining("frame size 59 bytes is out of range");
        assertThatThrownBy(() -> RawSpecJson.read(json.deepCopy()
                .put("rx_interface", "eth2"))).hasMessageContaining("give \"tx_interface\" or \"rx_interface\", not both");
    }
}
