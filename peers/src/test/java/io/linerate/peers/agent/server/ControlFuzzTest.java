package io.linerate.peers.agent.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.TransferSpec;
import io.linerate.peers.Allocations;
import io.linerate.peers.agent.client.RemoteStreamTransfer;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.agent.internal.wire.SpecJson;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target for the agent's control parser: messages as {@link Control#read} frames them (a
 * 4-byte big-endian length, at most {@value Control#MAX_MESSAGE_BYTES} bytes of JSON), then what
 * the agent and its client make of them as {@link AgentSession} and {@link RemoteStreamTransfer}
 * do: {@link SpecJson}, {@link LatencySpecJson} and {@link EndJson}. Invariants: nothing escapes
 * but {@link IOException} and {@link IllegalArgumentException}, each with a message; a length is
 * refused before anything is allocated for it; a spec that reads back writes as itself.
 */
class ControlFuzzTest {
    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void agentReadsControlMessages(byte[] input) {
        // the least of several runs: a one-time cost (a class loaded late) is not this input's allocation
        assertThat(Allocations.leastOf(() -> messages(input))).isLessThanOrEqualTo(Allocations.bound(input.length));
    }

    private static void messages(byte[] input) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(input));
        while (true) {
            JsonNode m;
            try {
                m = Control.read(in);
            } catch (IOException e) {
                assertThat(e.getMessage()).isNotBlank();
                return;
            }
            assertThat(m.path("type").isTextual()).isTrue();
            try {
                interpret(m);
            } catch (IllegalArgumentException | IOException e) {
                assertThat(e.getMessage()).isNotBlank();
            }
        }
    }

    private static void interpret(JsonNode m) throws IOException {
        switch (m.get("type").asText()) {
            case "stream" -> {
                TransferSpec spec = SpecJson.read(m.get("spec"));
                AgentLimits.defaults().refusal(spec);
                String written = SpecJson.write(spec);
                assertThat(SpecJson.write(SpecJson.read(written))).isEqualTo(written);
            }
            case "pingpong" -> {
                LatencySpecJson.pingPong(m.get("spec"));
                SpecJson.integer(m.get("spec"), "run_ns");
            }
            case "rr" -> LatencySpecJson.rr(m.get("spec"));
            case "result" -> {
                JsonNode end = m.get("end");
                if (end != null && end.isObject()) {
                    EndJson.counters(end);
                    EndJson.options(end);
                    io.linerate.peers.agent.internal.wire.TcpIntervalsJson.read(end, 64);
                }
            }
            default -> {
                // hello, auth, done, refused, error: their fields are read with path(), which cannot fail
            }
        }
    }
}
