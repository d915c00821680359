package io.linerate.peers.agent.internal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class EndJsonSocketDropsTest {

    @Test
    void aKnownCountCrossesTheWireUnchanged() throws IOException {
        ObjectNode end = Control.MAPPER.createObjectNode();
        EndJson.socketDrops(end, 1_890_000);
        assertThat(end.toString()).isEqualTo("{\"socket_drops\":1890000}");
        assertThat(EndJson.socketDrops(Control.MAPPER.readTree(end.toString()))).isEqualTo(1_890_000);
    }

    @Test
    void anUnknownCountIsNotSentAndReadsAsUnknown() throws IOException {
        ObjectNode end = Control.MAPPER.createObjectNode();
        EndJson.socketDrops(end, -1);
        assertThat(end.has("socket_drops")).isFalse();
        // an agent of an earlier release, or a sending end, sends no such field
        assertThat(EndJson.socketDrops(Control.MAPPER.readTree("{\"sender\":false,\"bytes\":12}"))).isEqualTo(-1);
    }

    @Test
    void aMalformedCountIsAnError() {
        assertThatThrownBy(() -> EndJson.socketDrops(Control.MAPPER.readTree("{\"socket_drops\":-3}")))
                .isInstanceOf(IOException.class).hasMessage("the peer's socket_drops is not a count of 0 or more: -3");
        assertThatThrownBy(() -> EndJson.socketDrops(Control.MAPPER.readTree("{\"socket_drops\":\"many\"}")))
                .isInstanceOf(IOException.class).hasMessageContaining("\"many\"");
    }
}
