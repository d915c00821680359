package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SequenceTrackerTest {

    private static SequenceTracker feed(long... seqs) {
        SequenceTracker t = new SequenceTracker();
        for (long s : seqs) {
            t.onArrival(s);
        }
        return t;
    }

    @Test
    void inOrderArrivalsAreAllDistinct() {
        SequenceTracker t = feed(0, 1, 2, 3, 4);
        assertThat(t.distinct()).isEqualTo(5);
        assertThat(t.reordered()).isZero();
        assertThat(t.duplicates()).isZero();
        assertThat(t.lost(5)).isZero();
    }

    @Test
    void reorderingIsNotLoss() {
        // 2 arrives before 1: one reordered datagram, nothing lost
        SequenceTracker t = feed(0, 2, 1, 3);
        assertThat(t.reordered()).isEqualTo(1);
        assertThat(t.distinct()).isEqualTo(4);
        assertThat(t.lost(4)).isZero();
        assertThat(t.missingSoFar()).isZero();
    }

    @Test
    void duplicatesAreNotReceivedTwice() {
        SequenceTracker t = new SequenceTracker();
        assertThat(t.onArrival(0)).isEqualTo(SequenceTracker.Arrival.IN_ORDER);
        assertThat(t.onArrival(1)).isEqualTo(SequenceTracker.Arrival.IN_ORDER);
        assertThat(t.onArrival(1)).isEqualTo(SequenceTracker.Arrival.DUPLICATE);
        assertThat(t.onArrival(0)).isEqualTo(SequenceTracker.Arrival.DUPLICATE);
        assertThat(t.onArrival(2)).isEqualTo(SequenceTracker.Arrival.IN_ORDER);
        assertThat(t.distinct()).isEqualTo(3);
        assertThat(t.duplicates()).isEqualTo(2);
        assertThat(t.reordered()).isZero();
        assertThat(t.lost(3)).isZero();
    }

    @Test
    void trailingLossCounts() {
        // sender sent 0..9; 7, 8, 9 never arrived: no gap is visible to the receiver, yet 3 are lost
        SequenceTracker t = feed(0, 1, 2, 3, 4, 5, 6);
        assertThat(t.missingSoFar()).isZero();
        assertThat(t.lost(10)).isEqualTo(3);
    }

    @Test
    void gapsLateArrivalsAndDuplicatesTogether() {
        // sent 0..7: arrivals 0 1 5 3 5 7; 2, 4, 6 lost; 3 reordered; one duplicate 5
        SequenceTracker t = feed(0, 1, 5, 3, 5, 7);
        assertThat(t.distinct()).isEqualTo(5);
        assertThat(t.reordered()).isEqualTo(1);
        assertThat(t.duplicates()).isEqualTo(1);
        assertThat(t.lost(8)).isEqualTo(3);
        assertThat(t.highest()).isEqualTo(7);
        assertThat(t.missingSoFar()).isEqualTo(3);
    }

    @Test
    void slotsAreForgottenWhenTheWindowMovesOn() {
        SequenceTracker t = new SequenceTracker();
        t.onArrival(0);
        // a jump of more than the window: slot of 0 is reused by WINDOW, which must not look like a duplicate
        assertThat(t.onArrival(SequenceTracker.WINDOW)).isEqualTo(SequenceTracker.Arrival.IN_ORDER);
        assertThat(t.onArrival(1)).isEqualTo(SequenceTracker.Arrival.REORDERED);
        assertThat(t.onArrival(SequenceTracker.WINDOW - 1L)).isEqualTo(SequenceTracker.Arrival.REORDERED);
        assertThat(t.onArrival(SequenceTracker.WINDOW - 1L)).isEqualTo(SequenceTracker.Arrival.DUPLICATE);
        assertThat(t.distinct()).isEqualTo(4);
    }

    @Test
    void negativeNumbersAreIgnored() {
        SequenceTracker t = new SequenceTracker();
        assertThat(t.onArrival(-1)).isEqualTo(SequenceTracker.Arrival.INVALID);
        assertThat(t.distinct()).isZero();
    }
}
