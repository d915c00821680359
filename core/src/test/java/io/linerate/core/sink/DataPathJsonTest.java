package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import org.junit.jupiter.api.Test;

/** A stream's {@code data_path} in the result JSON: each end's call and what its calls carried. */
class DataPathJsonTest {
    private static final TransferSpec UDP = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400).build();
    private static final AppliedOptions OPTIONS = new AppliedOptions(0, 0, 0, 0, 0, 0, false, false);

    @Test
    void eachEndCarriesItsCallsSegmentsAndTheirMean() throws Exception {
        // 1000 sends of 32 datagrams; 4000 receives returned 30,000 segments, 45 at most
        DataPath p = new DataPath(new DataPath.End("sendmmsg(2)", 1000, 32_000, 32),
                new DataPath.End("recvmmsg(2) with UDP_GRO", 4000, 30_000, 45), "");
        JsonNode n = json(TransferResult.builder(UDP).options(OPTIONS).dataPath(p).build()).get("data_path");
        assertThat(n.get("sender").get("call").asText()).isEqualTo("sendmmsg(2)");
        assertThat(n.get("sender").get("calls").asLong()).isEqualTo(1000);
        assertThat(n.get("sender").get("segments").asLong()).isEqualTo(32_000);
        assertThat(n.get("sender").get("segments_per_call").asDouble()).isEqualTo(32.0);
        assertThat(n.get("receiver").get("segments_per_call").asDouble()).isEqualTo(7.5);
        assertThat(n.get("receiver").get("max_segments_per_call").asLong()).isEqualTo(45);
        assertThat(n.has("payload_note")).as("a payload handled as on every path").isFalse();
    }

    @Test
    void aResultWithoutAPathHasNoField() throws Exception {
        assertThat(json(TransferResult.builder(UDP).options(OPTIONS).build()).has("data_path")).isFalse();
    }

    @Test
    void aPayloadNoteIsCarried() throws Exception {
        DataPath p = new DataPath(new DataPath.End("write(2)", 1, 1, 1), new DataPath.End("recv(2) with MSG_TRUNC", 1, 1, 1),
                "payload not checked: MSG_TRUNC drops it in the kernel");
        TransferResult r = TransferResult.builder(TransferSpec.builder().build()).options(OPTIONS).build().withDataPath(p);
        assertThat(json(r).get("data_path").get("payload_note").asText()).isEqualTo(p.payloadNote());
    }

    @Test
    void anUnreportedEndCarriesItsCallAloneNoCounts() throws Exception {
        DataPath p = new DataPath(new DataPath.End("sendfile(2)", 8, 8, 1),
                DataPath.End.unreported("the agent's receiving end"), DataPath.FROM_FILE);
        JsonNode n = json(TransferResult.builder(TransferSpec.builder().build()).options(OPTIONS).dataPath(p).build())
                .get("data_path");
        assertThat(n.get("receiver").get("call").asText())
                .isEqualTo("the agent's receiving end: calls not reported (an agent serving on nio names none)");
        assertThat(n.get("receiver").has("calls")).as("no count stands for calls nobody counted").isFalse();
        assertThat(n.get("receiver").has("segments")).isFalse();
        assertThat(n.get("sender").get("calls").asLong()).isEqualTo(8);
        assertThat(p.receiver().reported()).isFalse();
        assertThat(p.sender().reported()).isTrue();
    }

    private static JsonNode json(TransferResult r) throws Exception {
        return new ObjectMapper().readTree(ResultJson.transfer(r).toJson());
    }
}
