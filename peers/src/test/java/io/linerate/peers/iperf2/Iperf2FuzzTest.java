package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.linerate.peers.Allocations;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzz targets for iperf 2's wire formats: the UDP datagram header as linerate's server reads it
 * ({@link Iperf2HeaderVariant#detect}, {@link Iperf2Datagram#id}, {@link Iperf2Datagram#sendMicros},
 * counted by {@link Iperf2UdpSession}) and the server report as linerate's client reads it
 * ({@link Iperf2ServerReport#parse}). iperf 2 has no control channel: these two are everything a
 * peer sends that linerate decodes. Invariants: nothing escapes but the documented
 * {@link IllegalArgumentException} of a report that is not one; every report the server writes
 * parses back to itself (within the 32-bit words of a 12- or 16-byte layout without upper words);
 * counts are never negative and lost is at most datagrams in all; what a run allocates is bounded
 * by its input ({@link Allocations#bound}).
 *
 * <p>The normal build replays the seeds in {@code Iperf2FuzzTestInputs/<method>/}; with
 * {@code JAZZER_FUZZ=1} one target at a time is fuzzed for its {@code maxDuration}.
 */
class Iperf2FuzzTest {
    private static final InetSocketAddress CLIENT = new InetSocketAddress("127.0.0.1", 5001);

    /**
     * Datagrams as the server receives them: each a length byte and that many bytes. The first
     * datagram chooses the layout, as the server does; a final one (negative id) is answered with a
     * report, which must parse back.
     */
    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void serverReadsDatagrams(byte[] input) {
        // the least of several runs: a one-time cost (a class loaded late) is not this input's allocation
        assertThat(Allocations.leastOf(() -> receive(input))).isLessThanOrEqualTo(Allocations.bound(input.length));
    }

    /** A report datagram as the client receives it: the first byte's bit 0 chooses a 16-byte (set) or 12-byte header. */
    @FuzzTest(maxExecutions = 500_000, maxDuration = "45s")
    @Timeout(60) // per input when fuzzing (Jazzer passes it to libFuzzer), and over the whole fuzzing run
    void clientReadsReport(byte[] input) {
        if (input.length == 0) {
            return;
        }
        int headerBytes = (input[0] & 1) != 0 ? 16 : 12;
        ByteBuffer datagram = ByteBuffer.wrap(input, 1, input.length - 1).slice();
        try {
            Iperf2ServerReport r = Iperf2ServerReport.parse(datagram, headerBytes);
            assertThat(r.flags() & Iperf2HeaderVariant.HEADER_VERSION1).isNotZero();
            assertThat(r.bytes()).isNotNegative();
            assertThat(r.durationMicros()).isNotNegative();
            assertThat(r.errors()).isNotNegative();
            assertThat(r.outOfOrder()).isNotNegative();
            assertThat(r.datagrams()).isNotNegative();
            assertThat(r.jitterMicros()).isNotNegative();
            assertThat(r.received()).isBetween(0L, r.datagrams());
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).isNotBlank();
        }
        // parsing reads at absolute offsets: the datagram's bounds are untouched
        assertThat(datagram.position()).isZero();
        assertThat(datagram.limit()).isEqualTo(input.length - 1);
    }

    private static void receive(byte[] input) {
        ByteBuffer datagram = ByteBuffer.allocate(256);
        ByteBuffer reply = ByteBuffer.allocate(256);
        Iperf2UdpSession session = null;
        Iperf2HeaderVariant variant = null;
        long now = 0;
        for (int i = 0; i < input.length; ) {
            int len = Math.min(input[i] & 0xff, input.length - i - 1);
            datagram.clear();
            datagram.put(input, i + 1, len).flip();
            i += 1 + len;
            if (session == null) {
                if (len < Iperf2HeaderVariant.LEGACY.headerBytes()) {
                    continue; // the server ignores a datagram too short for any header
                }
                variant = Iperf2HeaderVariant.detect(datagram);
                session = new Iperf2UdpSession(CLIENT, variant, now);
            }
            now += 1_000_000L;
            boolean last = session.onDatagram(datagram, now, 1_700_000_000_000_000_000L + now);
            long id = len < variant.headerBytes() ? 0 : Iperf2Datagram.id(datagram, variant);
            assertThat(last).isEqualTo(id < 0);
            assertThat(datagram.position()).isZero();
            assertThat(datagram.limit()).isEqualTo(len);
            if (last) {
                Iperf2ServerReport r = session.report();
                assertThat(r.datagrams()).isPositive();
                assertThat(r.errors()).isBetween(0L, r.datagrams());
                assertThat(r.outOfOrder()).isNotNegative();
                assertThat(r.jitterMicros()).isNotNegative();
                r.write(reply, variant);
                Iperf2ServerReport back = Iperf2ServerReport.parse(reply, variant.headerBytes());
                long mask = variant == Iperf2HeaderVariant.SEQ64 ? -1L : 0xffff_ffffL;
                assertThat(back.bytes()).isEqualTo(r.bytes());
                assertThat(back.datagrams()).isEqualTo(r.datagrams() & mask);
                assertThat(back.errors()).isEqualTo(r.errors() & mask);
                assertThatCode(back::received).doesNotThrowAnyException();
            }
        }
    }
}
