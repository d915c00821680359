package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.DatagramHeader;
import io.linerate.core.ManualClock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** UDP accounting by the phase each datagram was sent in, whenever it arrives. */
class ReceiverContextTest {
    private static final int W = DatagramHeader.WARMUP;
    private static final int M = DatagramHeader.WINDOW;
    private static final int A = DatagramHeader.AFTER;
    private final TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(100).build();
    private final ManualClock clock = new ManualClock();
    private final ReceiverContext rx = new ReceiverContext(spec, clock);
    private final ByteBuffer buf = ByteBuffer.allocate(100);

    private void arrive(int phase, long... seqs) {
        for (long seq : seqs) {
            DatagramHeader.write(buf, spec.streamId(), seq, clock.nanoTime(), phase);
            clock.advance(1000);
            rx.datagram(buf, 100);
        }
    }

    @Test
    void eachDatagramCountsInThePhaseItWasSentIn() {
        // warm-up sent 0..9; 3 is lost
        arrive(W, 0, 1, 2, 4, 5, 6, 7, 8, 9);
        // window sent 10..19: 15 lost, 17 before 16, 12 twice; 18 and 19 arrive after the window closed
        arrive(M, 10, 11, 12, 12, 13, 14, 17, 16);
        arrive(A, 20);
        arrive(M, 18);
        arrive(A, 21);
        arrive(M, 19);
        assertThat(rx.distinct(M)).as("window datagrams received").isEqualTo(9);
        // 16 after 17, 18 after 20, 19 after 21
        assertThat(rx.reordered(M)).isEqualTo(3);
        assertThat(rx.duplicates(M)).isEqualTo(1);
        assertThat(rx.delay(M).count()).as("every arrival of a window datagram").isEqualTo(10);
        assertThat(rx.distinct(W)).isEqualTo(9);
        assertThat(rx.distinct(A)).isEqualTo(2);
        assertThat(rx.tracker().distinct()).isEqualTo(20);
    }

    @Test
    void theWarmUpsLossIsNotTheWindowsThoughTheFirstWindowArrivalRevealsIt() {
        // warm-up sent 0..9, of which 7, 8 and 9 are lost: only the window's first arrival shows the gap
        arrive(W, 0, 1, 2, 3, 4, 5, 6);
        assertThat(rx.missing()).isZero();
        arrive(M, 10, 11);
        assertThat(rx.missing()).as("the whole stream's gaps: 7, 8, 9").isEqualTo(3);
        assertThat(rx.windowMissing()).as("no window datagram is missing").isZero();
        // window sent 10..19: 13 and 14 lost, 16 late
        arrive(M, 12, 15, 17);
        assertThat(rx.windowMissing()).as("13, 14, 16").isEqualTo(3);
        arrive(M, 16, 18, 19);
        assertThat(rx.windowMissing()).as("13, 14: 16 arrived late").isEqualTo(2);
        // the window's loss by its gaps equals the sender's 10 window datagrams less the 8 received
        assertThat(rx.windowMissing()).isEqualTo(10 - rx.distinct(M));
        arrive(A, 20, 22);
        assertThat(rx.windowMissing()).as("gaps after the window are not the window's").isEqualTo(2);
        assertThat(rx.missing()).isEqualTo(3 + 2 + 1);
    }

    @Test
    void anUnknownPhaseIsForeign() {
        DatagramHeader.write(buf, spec.streamId(), 0, 0, DatagramHeader.PHASES);
        rx.datagram(buf, 100);
        DatagramHeader.write(buf, spec.streamId(), 0, 0, -1);
        rx.datagram(buf, 100);
        assertThat(rx.foreign()).isEqualTo(2);
        assertThat(rx.tracker().distinct()).isZero();
    }

    @Test
    void segmentsOfOneCoalescedBufferAreAccountedEachByItsOwnHeader() {
        // three 100-byte segments in one buffer, as a UDP_GRO receive hands them over: 0, 2, then 1
        ByteBuffer coalesced = ByteBuffer.allocate(300);
        long[] seqs = {0, 2, 1};
        for (int i = 0; i < seqs.length; i++) {
            DatagramHeader.write(coalesced, i * 100, spec.streamId(), seqs[i], clock.nanoTime(), M);
        }
        for (int i = 0; i < seqs.length; i++) {
            rx.datagram(coalesced, i * 100, 100);
        }
        rx.datagram(coalesced, 100, 100);
        assertThat(rx.distinct(M)).isEqualTo(3);
        assertThat(rx.reordered(M)).isEqualTo(1);
        assertThat(rx.duplicates(M)).isEqualTo(1);
        assertThat(rx.windowBytes()).isEqualTo(300);
        assertThat(rx.foreign()).isZero();
    }
}
