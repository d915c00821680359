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

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource(delimiter = '|', value = {
        // 10^4 bit/s is 10 x 10^3: Kbits, not 0.01 Mbits
        "10000|10.00 Kbits/sec",
        "999|999.00 bits/sec",
        "0|0.00 bits/sec",
        "1000|1.00 Kbits/sec",
        // 12,710,000 bit/s = 12.71 x 10^6
        "12710000|12.71 Mbits/sec",
        // 16,350,000,000 bit/s = 16.35 x 10^9
        "16350000000|16.35 Gbits/sec",
        // Gbits is the largest unit: 2.5 x 10^12 bit/s = 2500 x 10^9
        "2500000000000|2500.00 Gbits/sec",
        // 999,999 bit/s is 999.999 K, which rounds to 1000.00 K: written as 1.00 M
        "999999|1.00 Mbits/sec",
    })
    void aRateIsWrittenInTheLargestUnitItReaches(double bitsPerSecond, String expected) {
        assertThat(Rates.text(bitsPerSecond)).isEqualTo(expected);
    }

    @Test
    void aRateWithoutAnIntervalIsNotApplicable() {
        assertThat(Rates.text(java.util.OptionalDouble.empty())).isEqualTo("n/a Mbits/sec");
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
