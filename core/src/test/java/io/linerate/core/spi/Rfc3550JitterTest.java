package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class Rfc3550JitterTest {
    private static final long MS = 1_000_000L;

    @Test
    void startsOnTheSecondDatagram() {
        Rfc3550Jitter j = new Rfc3550Jitter();
        j.onArrival(0, 10 * MS);
        assertThat(j.nanos()).isZero();
        assertThat(j.samples()).isZero();
    }

    @Test
    void followsTheRfcEstimatorOnAHandComputedSequence() {
        // sent every 20 ms; transits 10, 12, 9, 11 ms -> |D| = 2, 3, 2 ms
        // J1 = 0 + (2 - 0)/16          = 0.125 ms
        // J2 = 0.125 + (3 - 0.125)/16  = 0.3046875 ms
        // J3 = J2 + (2 - J2)/16        = 0.41064453125 ms
        Rfc3550Jitter j = new Rfc3550Jitter();
        j.onArrival(0, 10 * MS);
        j.onArrival(20 * MS, 32 * MS);
        assertThat(j.nanos()).isEqualTo(125_000.0);
        j.onArrival(40 * MS, 49 * MS);
        assertThat(j.nanos()).isEqualTo(304_687.5);
        j.onArrival(60 * MS, 71 * MS);
        assertThat(j.nanos()).isEqualTo(410_644.53125);
        assertThat(j.samples()).isEqualTo(3);
    }

    @Test
    void constantTransitHasNoJitterWhateverTheClockOffset() {
        Rfc3550Jitter j = new Rfc3550Jitter();
        for (int i = 0; i < 100; i++) {
            j.onArrival(i * MS, 5_000_000_000L + i * MS);
        }
        assertThat(j.nanos()).isZero();
    }
}
