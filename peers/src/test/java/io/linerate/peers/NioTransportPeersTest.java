package io.linerate.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AgentPeer;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.nio.NioTransport;
import io.linerate.peers.agent.client.AgentProtocol;
import io.linerate.peers.agent.client.AgentStream;
import io.linerate.peers.iperf2.Iperf2Stream;
import io.linerate.peers.iperf3.Iperf3Stream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A spec whose endpoint is a peer on another host is selected and opened by the nio transport
 * through the peers' protocols, with nothing connected yet; what a peer cannot run is refused with
 * its reason.
 */
class NioTransportPeersTest {
    private static final Endpoint.Remote AT = Endpoint.remote("127.0.0.1", 1);

    private static final Endpoint PEER = Endpoint.parse("198.18.0.2:7001");

    private static Measurement open(MeasurementSpec spec) throws Exception {
        return Transports.select(null, spec).open(spec, Clock.system());
    }

    @Test
    void eachPeerOpensAsItsOwnMeasurement() throws Exception {
        try (Measurement a = open(TransferSpec.builder().endpoint(AgentPeer.builder(AT).build()).build());
             Measurement b = open(TransferSpec.builder().endpoint(Iperf3Peer.builder(AT).build()).build());
             Measurement c = open(TransferSpec.builder().endpoint(Iperf2Peer.at(AT)).build())) {
            assertThat(a).isInstanceOf(AgentStream.class);
            assertThat(b).isInstanceOf(Iperf3Stream.class);
            assertThat(c).isInstanceOf(Iperf2Stream.class);
            assertThat(Transports.select(null, a.spec()).name()).isEqualTo(NioTransport.NAME);
        }
    }

    @Test
    void theAgentTakesADurationBoundOnlyAndIperfServersAnyBound() {
        NioTransport nio = new NioTransport();
        TransferSpec agent = TransferSpec.builder().bound(Bound.bytes(1000)).endpoint(AgentPeer.builder(AT).build()).build();
        assertThat(nio.unsupportedReason(agent)).hasValueSatisfying(r -> assertThat(r)
                .contains("linerate's agent at 127.0.0.1:1 is bounded by a duration"));
        TransferSpec iperf3 = TransferSpec.builder().bound(Bound.bytes(1000)).endpoint(Iperf3Peer.builder(AT).build()).build();
        assertThat(nio.unsupportedReason(iperf3)).isEmpty();
    }

    @Test
    void anIperfServersStreamRefusesTheNativeCallsButNotOneCallPerMessage() {
        TransferSpec gso = TransferSpec.builder().protocol(Protocol.UDP).io(new StreamIo(0, true, false, false))
                .endpoint(Iperf3Peer.builder(AT).build()).build();
        assertThat(new NioTransport().unsupportedReason(gso)).contains("io gso runs on the native transport's ends only, and"
                + " with an iperf3 server this host's end runs on the nio transport: leave --batch, --gso, -Z and"
                + " --skip-rx-copy out, or run the far end on linerate's agent (serve --transport native)");
        TransferSpec one = TransferSpec.builder().protocol(Protocol.UDP).io(new StreamIo(1, false, false, false))
                .endpoint(Iperf3Peer.builder(AT).build()).build();
        assertThat(new NioTransport().unsupportedReason(one)).isEmpty();
    }

    @Test
    void openedAsATransferAPeerSaysHowToOpenIt() {
        TransferSpec spec = TransferSpec.builder().endpoint(Iperf3Peer.builder(AT).build()).build();
        assertThatThrownBy(() -> new NioTransport().open(spec, Clock.system())).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("endpoint 127.0.0.1:1").hasMessageContaining("open((MeasurementSpec) spec, clock)");
    }

    @Test
    void aClosedOrRunPeerMeasurementRefusesToRun() throws Exception {
        Measurement m = open(TransferSpec.builder().endpoint(Iperf2Peer.at(AT)).build());
        m.close();
        assertThatThrownBy(m::run).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    private static final AgentPeer AGENT = AgentPeer.builder(Endpoint.parse("198.18.0.2:7001"))
            .secret(PeerSecret.of(new byte[] {1, 2, 3})).build();

    static Stream<MeasurementSpec> remoteSpecs() {
        return Stream.of(PingPongSpec.builder().endpoint(PEER).build(),
                PingPongSpec.builder().protocol(PingPongProtocol.UDP).endpoint(PEER).build(),
                RrSpec.builder().endpoint(PEER).build(),
                PingPongSpec.builder().endpoint(AGENT).build(),
                PingPongSpec.builder().protocol(PingPongProtocol.UDP).endpoint(AGENT).build(),
                RrSpec.builder().endpoint(AGENT).build());
    }

    @Test
    void aRawSpecWithTheAgentRunsOnATransportOfRawFramesNotOnNio() {
        RawTransferSpec raw = RawTransferSpec.txOnly("lrt0a").peerInterface("eth1").endpoint(AGENT).build();
        String reason = "this host's end of raw frames with linerate's agent runs on a transport that runs raw-frames, not nio";
        assertThat(new AgentProtocol().unsupportedReason(raw, new NioTransport())).contains(reason);
        assertThatThrownBy(() -> new AgentProtocol().open(raw, Clock.system(), new NioTransport()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(reason);
    }

    @ParameterizedTest
    @MethodSource("remoteSpecs")
    void aRemotePeerIsTakenForEveryLatencyPatternTheAgentServes(MeasurementSpec spec) {
        assertThat(new NioTransport().unsupportedReason(spec)).isEmpty();
    }

    @Test
    void anAgentPingPongOverAPipeIsRefusedWithTheReason() {
        PingPongSpec pipe = PingPongSpec.builder().protocol(PingPongProtocol.PIPE).endpoint(AGENT).build();
        assertThat(new NioTransport().unsupportedReason(pipe))
                .contains("ping-pong over pipe does not cross hosts: remote peer 198.18.0.2:7001 echoes tcp and udp");
    }

    @Test
    void aRemotePingPongOverAPipeIsRefusedWithTheReason() {
        PingPongSpec pipe = PingPongSpec.builder().protocol(PingPongProtocol.PIPE).endpoint(PEER).build();
        String reason = "ping-pong over pipe does not cross hosts: remote peer 198.18.0.2:7001 echoes tcp and udp";
        assertThat(new NioTransport().unsupportedReason(pipe)).contains(reason);
        assertThatThrownBy(() -> new NioTransport().open(pipe, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessage(reason);
    }

    @Test
    void aRemoteStreamIsSupportedButOnlyForADuration() {
        TransferSpec timed = TransferSpec.builder().endpoint(Endpoint.parse("198.18.0.2:7001")).build();
        TransferSpec counted = timed.toBuilder().bound(Bound.bytes(1000)).build();

        assertThat(new NioTransport().unsupportedReason(timed)).isEmpty();
        assertThat(new NioTransport().unsupportedReason(counted)).contains("a stream with remote peer 198.18.0.2:7001"
                + " is bounded by a duration, not 1000 bytes: the two ends agree on when to stop by time");
        assertThatThrownBy(() -> new NioTransport().open(counted, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bounded by a duration");
    }
}
