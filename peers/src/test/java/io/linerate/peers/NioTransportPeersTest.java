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
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.nio.NioTransport;
import io.linerate.peers.agent.client.AgentStream;
import io.linerate.peers.iperf2.Iperf2Stream;
import io.linerate.peers.iperf3.Iperf3Stream;
import org.junit.jupiter.api.Test;

/** A stream spec whose endpoint names its peer is selected and opened by the nio transport, with nothing connected yet. */
class NioTransportPeersTest {
    private static final Endpoint.Remote AT = Endpoint.remote("127.0.0.1", 1);

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
}
