package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import org.junit.jupiter.api.Test;

/** The spec's {@code io} object on the agent's wire: sent only when not the default, read back whole. */
class SpecJsonIoTest {
    @Test
    void aDefaultSpecCarriesNoIoSoThatAPreviousReleaseReadsIt() {
        String json = SpecJson.write(TransferSpec.builder().build());
        assertThat(json).doesNotContain("\"io\"");
        assertThat(SpecJson.read(json).io()).isEqualTo(StreamIo.DEFAULT);
    }

    @Test
    void everyIoFieldTravels() {
        TransferSpec udp = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400)
                .io(new StreamIo(64, true, false, false)).build();
        assertThat(SpecJson.write(udp)).contains("\"io\":{\"batch\":64,\"gso\":true,\"zerocopy\":false,\"skip_rx_copy\":false}");
        assertThat(SpecJson.read(SpecJson.write(udp)).io()).isEqualTo(new StreamIo(64, true, false, false));
        TransferSpec tcp = TransferSpec.builder().io(new StreamIo(0, false, true, true)).build();
        assertThat(SpecJson.read(SpecJson.write(tcp)).io()).isEqualTo(new StreamIo(0, false, true, true));
    }

    @Test
    void aBadIoIsRefusedNamingTheField() {
        String json = SpecJson.write(TransferSpec.builder().build());
        String bad = json.substring(0, json.length() - 1) + ",\"io\":{\"batch\":2000,\"gso\":false,\"zerocopy\":false,\"skip_rx_copy\":false}}";
        assertThatThrownBy(() -> SpecJson.read(bad)).hasMessageContaining("batch 2000 datagrams per call is out of range");
        String notObject = json.substring(0, json.length() - 1) + ",\"io\":3}";
        assertThatThrownBy(() -> SpecJson.read(notObject)).hasMessage("spec field \"io\" is not a JSON object");
    }
}
