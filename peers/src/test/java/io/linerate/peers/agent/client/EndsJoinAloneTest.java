package io.linerate.peers.agent.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Endpoint;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.engine.EndCounters;
import java.time.Duration;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/**
 * An interrupted stream whose agent did not answer in time (an agent from before the stop
 * message, or one gone): this end's counts alone, marked interrupted, with the reason the far
 * end's are missing, and no metric that would read its zeros as measured.
 */
class EndsJoinAloneTest {
    private static final TransferSpec SPEC = TransferSpec.builder().protocol(Protocol.TCP).payloadBytes(1000)
            .duration(Duration.ofSeconds(30)).endpoint(Endpoint.remote("198.18.0.2", 7001)).build();
    private static final String MISSING = "the agent's counts are missing: no result from it within the I/O timeout";

    @Test
    void aSenderAloneKeepsWhatItSentAndSaysTheReceiversCountsAreMissing() {
        // 2 s of window in which 250,000 of its 300,000 bytes were sent
        EndCounters local = new EndCounters(true, 300_000, 300, 0, 2_000_000_000L, 250_000, 250, 0, 0, 0,
                OptionalDouble.empty(), 5_000_000, List.of(), true);
        TransferResult t = EndsJoin.alone(SPEC, local, new AppliedOptions(0, 0, 0, 0, 0, 0, false, false), MISSING);
        RemoteStreamResult r = new RemoteStreamResult(t, local, EndsJoin.missingFarEnd(local));

        assertThat(r.interrupted()).isTrue();
        assertThat(t.bytesSent()).isEqualTo(300_000);
        assertThat(t.windowBytesSent()).isEqualTo(250_000);
        assertThat(t.bytesReceived()).isZero();
        assertThat(r.remote().sender()).isFalse();
        assertThat(r.invalidReasons()).containsExactly(MISSING);
        assertThat(r.metrics()).as("no figure from counts that were not measured").isEmpty();
        assertThat(ResultJson.of(r).toJson()).contains("\"interrupted\":true").contains(MISSING);
    }

    @Test
    void aSenderBlockedForItsWholeWindowIsInvalidAndSaysItsReceiverReadTooLittle() {
        // 183 MB sent in the warm-up, none in the 5 s window; the receiver read 13 MB in its own 3 s window
        EndCounters local = new EndCounters(true, 183_107_584, 1397, 0, 5_000_000_000L, 0, 0, 0, 0, 0,
                OptionalDouble.empty(), 5_000_000, List.of());
        EndCounters far = new EndCounters(false, 183_107_584, 0, 0, 3_000_000_000L, 13_155_000, 0, 0, 0, 0,
                OptionalDouble.empty(), 5_000_000, List.of());
        // the spec's traffic class applied as asked, so that the only reason is the window's
        TransferResult t = EndsJoin.join(SPEC, local, new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false), far,
                new int[] {0x20, 0, 0, 0});

        assertThat(t.invalidReasons()).containsExactly("no payload byte was sent in the sender's window of "
                + "5000000000 ns, after 183107584 bytes before it: the sender's socket stayed full (TCP flow control), "
                + "as its receiver read 13155000 bytes in its own window; with more streams than CPUs, give fewer "
                + "--parallel streams");
    }
}
