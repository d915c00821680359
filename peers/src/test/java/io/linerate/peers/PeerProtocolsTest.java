package io.linerate.peers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.PeerProtocols;
import io.linerate.core.spi.Transport;
import io.linerate.nio.NioTransport;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The peers found through core's SPI: each endpoint of another host reaches the protocol registered
 * for it, this JVM's reaches none, and a protocol refuses a transport its ends do not run on.
 */
class PeerProtocolsTest {
    private static final Endpoint.Remote AT = Endpoint.remote("127.0.0.1", 1);

    /** A transport other than NIO, known by its name alone. */
    private static final Transport ELSEWHERE = new Transport() {
        @Override
        public String name() {
            return "elsewhere";
        }

        @Override
        public Optional<String> unsupportedReason(MeasurementSpec spec) {
            return Optional.empty();
        }

        @Override
        public Measurement open(MeasurementSpec spec, Clock clock) {
            throw new UnsupportedOperationException("not opened in this test");
        }
    };

    private static String nameOf(Endpoint e) {
        return PeerProtocols.of(e).map(PeerProtocol::name).orElse("none");
    }

    @Test
    void eachEndpointOfAnotherHostReachesItsProtocol() {
        assertThat(nameOf(AT)).isEqualTo("agent");
        assertThat(nameOf(AgentPeer.builder(AT).build())).isEqualTo("agent");
        assertThat(nameOf(Iperf3Peer.builder(AT).build())).isEqualTo("iperf3");
        assertThat(nameOf(Iperf2Peer.at(AT))).isEqualTo("iperf2");
        assertThat(nameOf(Endpoint.loopback())).isEqualTo("none");
    }

    @Test
    void aProtocolRunsItsEndsOnTheNioTransportOnly() {
        TransferSpec spec = TransferSpec.builder().endpoint(Iperf3Peer.builder(AT).build()).build();
        PeerProtocol iperf3 = PeerProtocols.of(spec.endpoint()).orElseThrow();
        assertThat(iperf3.unsupportedReason(spec, new NioTransport())).isEmpty();
        assertThat(iperf3.unsupportedReason(spec, ELSEWHERE)).hasValue(
                "this host's ends with an iperf3 server are the JDK's sockets and run on the nio transport, not elsewhere");
        assertThatThrownBy(() -> iperf3.open(spec, Clock.system(), ELSEWHERE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not elsewhere");
    }

    @Test
    void theMessageForAnEndpointNoProtocolReachesNamesTheModule() {
        assertThat(PeerProtocols.missing(AT)).isEqualTo("no peer protocol on the class path reaches Remote 127.0.0.1:1: add "
                + "linerate-peers");
    }
}
