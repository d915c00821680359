package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class StreamIoTest {
    @Test
    void aBatchOutsideUioMaxiovIsRefusedNamingTheRange() {
        assertThatThrownBy(() -> new StreamIo(1025, false, false, false))
                .hasMessage("batch 1025 datagrams per call is out of range; allowed: 0 (the transport's choice) or 1..1024 (UIO_MAXIOV)");
        assertThatThrownBy(() -> new StreamIo(-1, false, false, false)).hasMessageStartingWith("batch -1 ");
        assertThat(new StreamIo(1024, false, false, false).batch()).isEqualTo(1024);
    }

    @Test
    void eachPathIsRefusedOffItsProtocol() {
        TransferSpec.Builder udp = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400);
        TransferSpec.Builder tcp = TransferSpec.builder().protocol(Protocol.TCP);
        assertThatThrownBy(() -> tcp.io(new StreamIo(0, true, false, false)).build())
                .hasMessageStartingWith("gso applies to UDP only, not tcp");
        assertThatThrownBy(() -> tcp.io(new StreamIo(8, false, false, false)).build())
                .hasMessageStartingWith("batch 8 applies to UDP only, not tcp");
        assertThatThrownBy(() -> udp.io(new StreamIo(0, false, true, false)).build())
                .hasMessage("zerocopy (sendfile) applies to TCP only, not udp");
        assertThatThrownBy(() -> udp.io(new StreamIo(0, false, false, true)).build())
                .hasMessage("skip-rx-copy (MSG_TRUNC) applies to TCP only, not udp");
    }

    @Test
    void theSpecNamesTheOptionsThatDifferFromTheDefault() {
        TransferSpec s = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400)
                .io(new StreamIo(16, true, false, false)).build();
        assertThat(s.io().isDefault()).isFalse();
        assertThat(s.toString()).endsWith(" batch=16 gso");
        assertThat(s.toBuilder().build().io()).isEqualTo(s.io());
        assertThat(TransferSpec.builder().build().toString()).doesNotContain("batch").doesNotContain("gso");
    }

    @Test
    void segmentsPerCallIsTheMeanAndZeroWithoutCalls() {
        assertThat(new DataPath.End("sendmmsg(2)", 4, 10, 4).segmentsPerCall()).isEqualTo(2.5);
        assertThat(new DataPath.End("recvmmsg(2)", 0, 0, 0).segmentsPerCall()).isZero();
        assertThatThrownBy(() -> new DataPath.End("recv(2)", -1, 0, 0)).hasMessageContaining("allowed: 0 or more");
    }
}
