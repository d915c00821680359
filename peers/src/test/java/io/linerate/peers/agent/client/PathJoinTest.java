package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import java.io.IOException;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** A stream's data path with the agent: this end's calls and the agent's, each in its place, or why it is invalid. */
class PathJoinTest {
    private static final AppliedOptions OPTIONS = new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false);
    private static final DataPath.End SENDS = new DataPath.End("sendmmsg(2) with UDP_SEGMENT", 100, 4600, 46);
    private static final DataPath.End RECEIVES = new DataPath.End("recvmmsg(2) with UDP_GRO", 300, 4500, 46);

    private static TransferResult result(StreamIo io) {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1400).io(io)
                .endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        return TransferResult.builder(spec).options(OPTIONS).build();
    }

    private static JsonNode agentEnd(DataPath.End path) throws IOException {
        ObjectNode end = Control.MAPPER.createObjectNode();
        if (path != null) {
            EndJson.dataPath(end, path);
        }
        return Control.MAPPER.readTree(end.toString());
    }

    @Test
    void thisHostSendingPutsTheAgentsCallsOnTheReceiverSide() throws IOException {
        TransferResult r = PathJoin.join(result(new StreamIo(0, true, false, false)), Optional.of(SENDS), true,
                agentEnd(RECEIVES));
        assertThat(r.dataPath()).contains(new DataPath(SENDS, RECEIVES, ""));
        assertThat(r.valid()).isTrue();
    }

    @Test
    void theAgentSendingPutsItsCallsOnTheSenderSide() throws IOException {
        TransferResult r = PathJoin.join(result(StreamIo.DEFAULT), Optional.of(RECEIVES), false, agentEnd(SENDS));
        assertThat(r.dataPath().orElseThrow().sender()).isEqualTo(SENDS);
        assertThat(r.dataPath().orElseThrow().receiver()).isEqualTo(RECEIVES);
    }

    @Test
    void anAgentOfThePreviousReleaseIgnoringAnAskedPathMakesTheResultInvalid() throws IOException {
        TransferResult r = PathJoin.join(result(new StreamIo(0, true, false, false)), Optional.of(SENDS), true,
                agentEnd(null));
        assertThat(r.dataPath()).isEmpty();
        assertThat(r.invalidReasons()).containsExactly("the agent sent no data_path for its end, though the spec asked "
                + "for gso: an agent of a release before --batch, --gso, --zerocopy and --skip-rx-copy ignores them and "
                + "ran its default path; upgrade the agent, or run it with serve --transport native");
    }

    @Test
    void withoutAnAskedPathAMissingOneIsNoFault() throws IOException {
        TransferResult r = PathJoin.join(result(StreamIo.DEFAULT), Optional.of(SENDS), true, agentEnd(null));
        assertThat(r.dataPath()).isEmpty();
        assertThat(r.valid()).isTrue();
    }

    @Test
    void aPathAskedOfThisEndAloneNeedsNoneFromTheAgent() throws IOException {
        // zero-copy send where this host sends: the agent's receiving end was asked nothing
        TransferSpec tcp = TransferSpec.builder().io(new StreamIo(0, false, true, false))
                .endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        TransferResult joined = TransferResult.builder(tcp).options(OPTIONS).build();
        assertThat(PathJoin.join(joined, Optional.of(SENDS), true, agentEnd(null)).valid()).isTrue();
        assertThat(PathJoin.join(joined, Optional.of(RECEIVES), false, agentEnd(null)).invalidReasons())
                .singleElement().asString().startsWith("the agent sent no data_path for its end, though the spec asked for zerocopy");
    }

    @Test
    void aPayloadOptionOfThisEndAloneKeepsItsPathAndNoteWhenTheAgentNamesNoCalls() throws IOException {
        // an agent on nio sends no data_path; this end sent by sendfile(2), or received with MSG_TRUNC
        DataPath.End sendfile = new DataPath.End("sendfile(2)", 20, 20, 1);
        TransferResult sent = PathJoin.join(tcp(new StreamIo(0, false, true, false)), Optional.of(sendfile), true,
                agentEnd(null));
        assertThat(sent.valid()).isTrue();
        DataPath p = sent.dataPath().orElseThrow();
        assertThat(p.sender()).isEqualTo(sendfile);
        assertThat(p.receiver().reported()).isFalse();
        assertThat(p.receiver().call()).startsWith("the agent's receiving end: calls not reported");
        assertThat(p.payloadNote()).isEqualTo(DataPath.FROM_FILE);

        DataPath.End truncated = new DataPath.End("recv(2) with MSG_TRUNC", 30, 30, 1);
        TransferResult received = PathJoin.join(tcp(new StreamIo(0, false, false, true)), Optional.of(truncated), false,
                agentEnd(null));
        assertThat(received.valid()).isTrue();
        assertThat(received.dataPath().orElseThrow().receiver()).isEqualTo(truncated);
        assertThat(received.dataPath().orElseThrow().sender().call()).startsWith("the agent's sending end: calls not");
        assertThat(received.dataPath().orElseThrow().payloadNote()).isEqualTo(DataPath.TRUNCATED);
    }

    private static TransferResult tcp(StreamIo io) {
        TransferSpec spec = TransferSpec.builder().io(io).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
        return TransferResult.builder(spec).options(OPTIONS).build();
    }

    @Test
    void aMalformedPathIsAnError() throws IOException {
        JsonNode bad = Control.MAPPER.readTree("{\"data_path\":[\"send(2)\",-1,0,0]}");
        assertThatThrownBy(() -> PathJoin.join(result(StreamIo.DEFAULT), Optional.of(SENDS), true, bad))
                .hasMessageStartingWith("the peer's data_path is out of range");
        JsonNode shortOne = Control.MAPPER.readTree("{\"data_path\":[\"send(2)\",1]}");
        assertThatThrownBy(() -> PathJoin.join(result(StreamIo.DEFAULT), Optional.of(SENDS), true, shortOne))
                .hasMessageStartingWith("the peer's data_path is not [call, calls, segments, max_segments_per_call]");
    }
}
