package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.peers.Allocations;
import io.linerate.peers.agent.server.AgentLimits;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets for iperf3's control parser: the JSON objects behind their 4-byte big-endian
 * length ({@link Iperf3Wire#jsonLength}, {@link Iperf3Wire#jsonObject}), the client's parameters
 * ({@link Iperf3TestParams}) and results as the server reads them ({@link Iperf3ServerResults}),
 * the server's results as the client reads them ({@link Iperf3RemoteStream#fromResults}), and the
 * state bytes between them ({@link Iperf3State#name}). Invariants: nothing escapes but
 * {@link Iperf3Exception}; a length is refused before anything is allocated for it, so a decode
 * allocates at most {@link Allocations#bound} of its input; every input ends within the timeout.
 *
 * <p>The normal build replays the seeds in {@code Iperf3ControlFuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} one target at a time is fuzzed for its {@code maxDuration}.
 */
class Iperf3ControlFuzzTest {
    /**
     * What the server reads after a client's cookie: the parameters (length and JSON), a state byte
     * (TEST_END), the client's results (length and JSON), a state byte (IPERF_DONE).
     */
    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void serverReadsClient(byte[] input) {
        // the least of several runs: a one-time cost (a class loaded late) is not this input's allocation
        assertThat(Allocations.leastOf(() -> readClient(input))).isLessThanOrEqualTo(Allocations.bound(input.length));
    }

    /** What the client reads from a server: state bytes up to EXCHANGE_RESULTS, then the server's results. */
    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void clientReadsServer(byte[] input) {
        // the least of several runs: a one-time cost (a class loaded late) is not this input's allocation
        assertThat(Allocations.leastOf(() -> readServer(input))).isLessThanOrEqualTo(Allocations.bound(input.length));
    }

    private static void readClient(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        try {
            JsonNode p = next(in);
            if (p == null) {
                return;
            }
            Iperf3TestParams params = Iperf3TestParams.parse(p);
            assertThat(params.seconds()).isNotNegative();
            assertThat(params.omitSeconds()).isNotNegative();
            assertThat(params.bytes()).isNotNegative();
            assertThat(params.blocks()).isNotNegative();
            assertThat(params.rateBitsPerSecond()).isNotNegative();
            AgentLimits limits = AgentLimits.defaults();
            Optional<Iperf3TestParams.Refusal> no = params.refusal(limits);
            if (no.isPresent()) {
                assertThat(no.get().reason()).isNotBlank();
            } else {
                // a test the server runs is within every limit it checks
                assertThat(params.parallel()).isBetween(1, Iperf3Options.MAX_PARALLEL);
                assertThat(params.length()).isBetween(params.udp() ? Iperf3DatagramHeader.bytes(params.counters64()) : 1,
                        limits.maxPayloadBytes());
                assertThat(params.duration()).isLessThanOrEqualTo(limits.maxDuration());
            }
            if (!in.hasRemaining()) {
                return;
            }
            assertThat(Iperf3State.name(in.get())).isNotBlank();
            JsonNode results = next(in);
            if (results == null) {
                return;
            }
            Iperf3ServerResults mine = Iperf3ServerResults.of(params, List.of(), results);
            assertThat(mine.toJson().path("streams").size()).isZero();
            assertThat(mine.report().path("sum").path("bytes_received").asLong()).isZero();
            assertThat(mine.summary()).isNotBlank();
            if (in.hasRemaining()) {
                assertThat(Iperf3State.name(in.get())).isNotBlank();
            }
        } catch (Iperf3Exception e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    private static void readServer(byte[] input) {
        ByteBuffer in = ByteBuffer.wrap(input);
        try {
            while (true) {
                if (!in.hasRemaining()) {
                    return;
                }
                byte state = in.get();
                String name = Iperf3State.name(state);
                assertThat(name).isNotBlank();
                if (state > Iperf3State.IPERF_DONE || state < Iperf3State.SERVER_ERROR) {
                    assertThat(name).isEqualTo("unknown state " + state);
                }
                if (state == Iperf3State.EXCHANGE_RESULTS) {
                    break;
                }
            }
            JsonNode r = next(in);
            if (r == null) {
                return;
            }
            List<Iperf3RemoteStream> streams = Iperf3RemoteStream.fromResults(r);
            assertThat(streams).hasSize(r.get("streams").size());
        } catch (Iperf3Exception e) {
            assertThat(e.getMessage()).isNotBlank();
        }
    }

    /**
     * @return the next length-prefixed object, or null when the input ends first (a peer would be
     *     waited for, bounded by the I/O timeout)
     */
    private static JsonNode next(ByteBuffer in) throws Iperf3Exception {
        if (in.remaining() < Iperf3Wire.LENGTH_PREFIX_BYTES) {
            return null;
        }
        int n = Iperf3Wire.jsonLength(in);
        assertThat(n).isBetween(0, Iperf3Wire.MAX_JSON_BYTES);
        in.position(in.position() + Iperf3Wire.LENGTH_PREFIX_BYTES);
        if (in.remaining() < n) {
            return null;
        }
        byte[] body = new byte[n];
        in.get(body);
        return Iperf3Wire.jsonObject(body);
    }
}
