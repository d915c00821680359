package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PacerTest {

    @Test
    void rateZeroIsUnlimitedAndNeverDivides() {
        Pacer p = new Pacer(0);
        assertThat(p.unlimited()).isTrue();
        assertThat(p.offsetNanos(0)).isZero();
        assertThat(p.offsetNanos(Long.MAX_VALUE / 8)).isZero();
    }

    @Test
    void tenGigabitPerSecondAbove32Bits() {
        Pacer p = new Pacer(10_000_000_000L);
        // 1220 bytes = 9760 bits at 10^10 bit/s = 976 ns
        assertThat(p.offsetNanos(1220)).isEqualTo(976);
        // 10^9 bytes = 8 * 10^9 bits = 0.8 s
        assertThat(p.offsetNanos(1_000_000_000L)).isEqualTo(800_000_000L);
        // 10^12 bytes = 800 s: the product exceeds 2^32 and 2^31 many times over
        assertThat(p.offsetNanos(1_000_000_000_000L)).isEqualTo(800_000_000_000L);
    }

    @Test
    void oneMegabitPerSecond() {
        Pacer p = new Pacer(1_000_000);
        assertThat(p.offsetNanos(125_000)).isEqualTo(1_000_000_000L);
        assertThat(p.offsetNanos(1)).isEqualTo(8_000);
    }

    @Test
    void hugeOffsetsSaturate() {
        Pacer p = new Pacer(1);
        assertThat(p.offsetNanos(Long.MAX_VALUE / 8)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aLateSenderCatchesUpTwentyMillisecondsAndTheRestIsForgiven() {
        // 1 Mbit/s: 125 bytes per ms; the sender wakes 100 ms late with 125 bytes sent
        Pacer p = new Pacer(1_000_000);
        p.start(0);
        long now = 100_000_000L;
        assertThat(p.nanosUntilNext(125, now)).isEqualTo(-20_000_000L);
        // the origin moved by 79 ms: 20 more messages may leave now, the 21st waits 1 ms
        assertThat(p.nanosUntilNext(125 * 21, now)).isZero();
        assertThat(p.nanosUntilNext(125 * 22, now)).isEqualTo(1_000_000L);
        assertThat(new Pacer(0).nanosUntilNext(Long.MAX_VALUE / 8, 0)).isZero();
    }

    @Test
    void negativeRateIsRejected() {
        assertThatThrownBy(() -> new Pacer(-1)).hasMessage("rate -1 bit/s is out of range; allowed: 0 (unlimited) or more");
    }
}
