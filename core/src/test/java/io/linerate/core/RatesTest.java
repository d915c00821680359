package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RatesTest {

    @Test
    void zeroLengthIntervalHasNoRate() {
        assertThat(Rates.bitsPerSecond(1000, 0)).isEmpty();
        assertThat(Rates.perSecond(1000, 0)).isEmpty();
        assertThat(new IntervalSample(5, 5, 1000, 0, 0, false).bitsPerSecond()).isEmpty();
    }

    @Test
    void ratesAreDecimal() {
        // 1,000,000 bytes in 1 s = 8,000,000 bit/s = 8 Mbit/s
        assertThat(Rates.bitsPerSecond(1_000_000, 1_000_000_000L)).hasValue(8_000_000.0);
        assertThat(Rates.toMbits(8_000_000.0)).isEqualTo(8.0);
        // 64-bit byte counts: 10^12 bytes in 100 s = 8 * 10^10 bit/s, above 2^32
        assertThat(Rates.bitsPerSecond(1_000_000_000_000L, 100_000_000_000L)).hasValue(8.0e10);
    }

    @Test
    void manualClockMovesOnlyForward() {
        ManualClock c = new ManualClock(100);
        assertThat(c.advance(50)).isEqualTo(150);
        assertThat(c.nanoTime()).isEqualTo(150);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.advance(-1))
                .hasMessageContaining("cannot move back by -1 ns");
    }
}
