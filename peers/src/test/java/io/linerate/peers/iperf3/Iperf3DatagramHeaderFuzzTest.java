package io.linerate.peers.iperf3;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.linerate.core.spi.Rfc3550Jitter;
import io.linerate.core.spi.SequenceTracker;
import io.linerate.peers.Allocations;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz target for iperf3's UDP datagram header decoder ({@link Iperf3DatagramHeader}) and what a
 * receiving stream does with it: the index into a {@link SequenceTracker}, the send time into an
 * {@link Rfc3550Jitter}. The input's first byte chooses the counter width (bit 0: 64-bit); the rest
 * is datagrams, each a length byte and that many bytes. Invariants: nothing throws; an index is -1
 * or 0..2^63 - 2; the send time is 0..(2^32 - 1) s + (2^32 - 1) us; the tracker's counts stay
 * consistent (missing so far is 0 or more, distinct at most the arrivals); jitter is finite and 0
 * or more; what a run allocates is bounded by its input ({@link Allocations#bound}).
 */
class Iperf3DatagramHeaderFuzzTest {
    /** Largest send time the header can hold, us: unsigned 32-bit seconds and microseconds. */
    private static final long MAX_SEND_MICROS = 4_294_967_295L * 1_000_000L + 4_294_967_295L;

    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void decode(byte[] input) {
        // the least of several runs: a one-time cost (a class loaded late) is not this input's allocation
        assertThat(Allocations.leastOf(() -> receive(input))).isLessThanOrEqualTo(Allocations.bound(input.length));
    }

    private static void receive(byte[] input) {
        if (input.length == 0) {
            return;
        }
        boolean counters64 = (input[0] & 1) != 0;
        int header = Iperf3DatagramHeader.bytes(counters64);
        SequenceTracker tracker = new SequenceTracker();
        Rfc3550Jitter jitter = new Rfc3550Jitter();
        ByteBuffer datagram = ByteBuffer.allocate(256);
        long arrivals = 0;
        long arrivalNanos = 1_700_000_000_000_000_000L; // an epoch time in ns, as the receiver stamps it
        for (int i = 1; i < input.length; ) {
            int len = Math.min(input[i] & 0xff, input.length - i - 1);
            datagram.clear();
            datagram.put(input, i + 1, len).flip();
            i += 1 + len;
            if (len < header) {
                continue; // the stream counts its bytes but reads no header from a datagram this short
            }
            long index = Iperf3DatagramHeader.index(datagram, counters64);
            long sendMicros = Iperf3DatagramHeader.sendMicros(datagram);
            if (index != -1) {
                assertThat(index).isBetween(0L, Long.MAX_VALUE - 1);
                assertThat(index + 1).isEqualTo(Iperf3DatagramHeader.sequence(datagram, counters64));
            }
            assertThat(sendMicros).isBetween(0L, MAX_SEND_MICROS);
            tracker.onArrival(index);
            jitter.onArrival(sendMicros * 1000L, arrivalNanos);
            arrivalNanos += 1_000_000L;
            arrivals++;
            // decoding reads at absolute positions: the datagram's bounds are untouched
            assertThat(datagram.position()).isZero();
            assertThat(datagram.limit()).isEqualTo(len);
        }
        assertThat(tracker.distinct()).isBetween(0L, arrivals);
        assertThat(tracker.missingSoFar()).isNotNegative();
        assertThat(jitter.nanos()).isFinite().isNotNegative();
    }
}
