package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.DatagramHeader;
import org.junit.jupiter.api.Test;

/** The sender's credit against a receiver stream fed by hand (no ring, no thread, no clock). */
class ReceiverCreditTest {
    private static final int W = DatagramHeader.WINDOW;

    private final PublishedCounters published = new PublishedCounters(2 * RxStream.PUBLISHED_PER_STREAM);
    private final RxStream rx0 = new RxStream(0, 0x88b5, null, published);
    private final RxStream rx1 = new RxStream(1, 0x88b6, null, published);

    private void receive(RxStream s, long fromSeq, long toSeqExclusive) {
        for (long q = fromSeq; q < toSeqExclusive; q++) {
            s.frame(q, W, 100);
        }
        s.publish();
    }

    @Test
    void creditIsHalfTheRing() {
        assertThat(ReceiverCredit.limitFor(1000)).isEqualTo(500);
        assertThat(ReceiverCredit.limitFor(1)).isEqualTo(1);
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 100, 1_000);
        assertThat(c.active()).isTrue();
        assertThat(c.limit()).isEqualTo(500).isLessThan(c.ringFrames());
    }

    @Test
    void grantsNoMoreThanTheCreditLeftAndResumesWithABlocksWorth() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0, rx1}, 1000, 40, 1_000);
        assertThat(c.grant(0, 0, 64)).isEqualTo(64);
        assertThat(c.grant(0, 450, 64)).isEqualTo(50);      // 500 − 450
        assertThat(c.grant(0, 461, 64)).as("less than a block's worth left").isZero();
        assertThat(c.grant(0, 500, 64)).isZero();
        receive(rx0, 0, 30);                                  // 30 read: less than a block's worth back
        assertThat(c.grant(0, 500, 64)).isZero();
        receive(rx0, 30, 45);                                 // 45 read in all
        assertThat(c.grant(0, 500, 64)).isEqualTo(45);
        assertThat(c.grant(1, 500, 64)).as("each stream has its own ring").isZero();
        c.sent(0, 545);
        assertThat(c.maxInFlight()).isEqualTo(500);
    }

    @Test
    void framesKnownLostReturnTheirCredit() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 10, 1_000);
        receive(rx0, 0, 10);
        receive(rx0, 20, 21);                                 // 10..19 lost before the ring: never in it
        assertThat(c.grant(0, 500, 64)).isEqualTo(21);
    }

    @Test
    void countsEachWaitOnceAndGivesUpAfterTheTimeout() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 100, 1_000);
        c.waiting(0, 500, 5_000);
        c.waiting(0, 500, 6_000);                             // same wait, at the bound
        assertThat(c.waits()).isEqualTo(1);
        c.granted();
        c.waiting(0, 500, 10_000);
        assertThat(c.waits()).isEqualTo(2);
        assertThatThrownBy(() -> c.waiting(0, 500, 11_001))
                .isInstanceOf(ReceiverCredit.CreditTimeoutException.class)
                .hasMessageContaining("stream 0").hasMessageContaining("500 frames in flight")
                .hasMessageContaining("credit 500 frames");
    }

    @Test
    void noCreditGrantsEverything() {
        ReceiverCredit c = ReceiverCredit.none();
        assertThat(c.active()).isFalse();
        assertThat(c.grant(0, Long.MAX_VALUE / 2, 64)).isEqualTo(64);
        assertThat(c.limit()).isZero();
    }

    @Test
    void refusesABadTimeoutOrRing() {
        RxStream[] s = {rx0};
        assertThatThrownBy(() -> ReceiverCredit.of(s, 1000, 100, 0)).hasMessageContaining("credit timeout 0 ns")
                .hasMessageContaining("allowed: 1 or more");
        assertThatThrownBy(() -> ReceiverCredit.of(s, 0, 1, 1)).hasMessageContaining("ring of 0 frames");
        assertThatThrownBy(() -> ReceiverCredit.of(s, 1000, 0, 1)).hasMessageContaining("block of 0 frames");
    }

    @Test
    void ringCapacityIsBelowWhatItsBytesCouldHold() {
        // each frame needs its bytes after an 82-byte header (TPACKET3_HDRLEN 68 + MAC alignment); blocks a 48-byte descriptor
        for (int frame : new int[] {60, 1014, 1514, 9014}) {
            long ring = FrameReceiver.ringFrames(1 << 20, 64, frame);
            assertThat(ring).isPositive().isLessThanOrEqualTo(64L * ((1 << 20) - 48) / (82 + frame));
        }
    }
}
