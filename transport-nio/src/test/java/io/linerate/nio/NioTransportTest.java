package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import org.junit.jupiter.api.Test;

class NioTransportTest {

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

    @Test
    void loopbackIsSupportedAndAvailable() {
        NioTransport nio = new NioTransport();
        assertThat(nio.unsupportedReason(TransferSpec.builder().build())).isEmpty();
        assertThat(nio.isAvailable()).isTrue();
    }
}
