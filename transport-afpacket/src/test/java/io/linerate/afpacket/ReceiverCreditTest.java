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
    void creditIsThreeQuartersOfTheRing() {
        assertThat(ReceiverCredit.limitFor(1000)).isEqualTo(750);
        assertThat(ReceiverCredit.limitFor(1)).isEqualTo(1);
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 1_000);
        assertThat(c.active()).isTrue();
        assertThat(c.limit()).isEqualTo(750).isLessThan(c.ringFrames());
    }

    @Test
    void grantsNoMoreThanTheCreditLeftAndReturnsWhatTheReceiverRead() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0, rx1}, 1000, 1_000);
        assertThat(c.grant(0, 0, 64)).isEqualTo(64);
        assertThat(c.grant(0, 700, 64)).isEqualTo(50);      // 750 − 700
        assertThat(c.grant(0, 750, 64)).isZero();
        receive(rx0, 0, 30);                                  // 30 read: 30 frames of credit back
        assertThat(c.grant(0, 750, 64)).isEqualTo(30);
        assertThat(c.grant(1, 750, 64)).as("each stream has its own ring").isZero();
        c.sent(0, 780);
        assertThat(c.maxInFlight()).isEqualTo(750);
    }

    @Test
    void framesKnownLostReturnTheirCredit() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 1_000);
        receive(rx0, 0, 10);
        receive(rx0, 20, 21);                                 // 10..19 lost before the ring: never in it
        assertThat(c.grant(0, 750, 64)).isEqualTo(21);
    }

    @Test
    void countsEachWaitOnceAndGivesUpAfterTheTimeout() {
        ReceiverCredit c = ReceiverCredit.of(new RxStream[] {rx0}, 1000, 1_000);
        c.waiting(0, 750, 5_000);
        c.waiting(0, 750, 6_000);                             // same wait, at the bound
        assertThat(c.waits()).isEqualTo(1);
        c.granted();
        c.waiting(0, 750, 10_000);
        assertThat(c.waits()).isEqualTo(2);
        assertThatThrownBy(() -> c.waiting(0, 750, 11_001))
                .isInstanceOf(ReceiverCredit.CreditTimeoutException.class)
                .hasMessageContaining("stream 0").hasMessageContaining("750 frames in flight")
                .hasMessageContaining("credit 750 frames");
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
        assertThatThrownBy(() -> ReceiverCredit.of(s, 1000, 0)).hasMessageContaining("credit timeout 0 ns")
                .hasMessageContaining("allowed: 1 or more");
        assertThatThrownBy(() -> ReceiverCredit.of(s, 0, 1)).hasMessageContaining("ring of 0 frames");
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
