package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import org.junit.jupiter.api.Test;

class NioTransportTest {

    @Test
    void aRemotePeerIsRefusedWithTheReasonUntilThereIsAnAgent() {
        TransferSpec spec = TransferSpec.builder().endpoint(Endpoint.parse("198.18.0.2:7001")).build();

        assertThat(new NioTransport().unsupportedReason(spec)).contains("remote peer 198.18.0.2:7001 needs a peer agent,"
                + " which this version of linerate does not have; run both ends in this JVM (loopback endpoint)");
        assertThatThrownBy(() -> new NioTransport().open(spec, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a peer agent");
        assertThatThrownBy(() -> Transports.forSpec(spec)).hasMessageContaining("nio: remote peer 198.18.0.2:7001");
    }

    @Test
    void loopbackIsSupportedAndAvailable() {
        NioTransport nio = new NioTransport();
        assertThat(nio.unsupportedReason(TransferSpec.builder().build())).isEmpty();
        assertThat(nio.isAvailable()).isTrue();
    }
}
