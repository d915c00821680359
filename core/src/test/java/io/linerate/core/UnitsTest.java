package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Every expected value below is worked out by hand from the suffix tables in the class comment. */
class UnitsTest {

    @ParameterizedTest(name = "{0} = {1} bit/s")
    @CsvSource({
        // 2.5 x 10^9
        "2.5G, 2500000000",
        // 100 x 10^6: a lower-case m is mega in a rate, as iperf3's -b 100m
        "100m, 100000000",
        "100M, 100000000",
        // 500 x 10^3
        "500k, 500000",
        "500K, 500000",
        // 10 x 10^12, above 2^32 (DESIGN rule 7)
        "10T, 10000000000000",
        "0, 0",
        "0.0, 0",
        "1, 1",
        // 1.4 rounds down, 1.5 rounds half up, to whole bit/s
        "1.4, 1",
        "1.5, 2",
        // .5 x 10^3
        ".5k, 500",
        // trailing units of bits
        "100Mbit/s, 100000000",
        "100Mbps, 100000000",
        "100Mb, 100000000",
        "' 2.5G ', 2500000000",
    })
    void bitRates(String text, long expected) {
        assertThat(Units.bitsPerSecond(text)).isEqualTo(expected);
    }

    @Test
    void aNonZeroRateBelowOneBitPerSecondIsRefusedSinceZeroMeansUnlimited() {
        assertThatThrownBy(() -> Units.bitsPerSecond("0.5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'0.5'").hasMessageContaining("below 1 bit/s")
                .hasMessageContaining("allowed: 0 or 1..9223372036854775807 bit/s");
        assertThatThrownBy(() -> Units.bitsPerSecond("0.0001k")).hasMessageContaining("below 1 bit/s");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "-1", "-100M", "abc", "100x", "100MB", "100 kilo", "1e6", "2.5.1G", "100Mbit/sx"})
    void malformedRatesAreRefusedNamingTheText(String text) {
        assertThatThrownBy(() -> Units.bitsPerSecond(text))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rate")
                .hasMessageContaining("allowed");
    }

    @Test
    void aRateAboveLongMaxIsRefused() {
        // 10^7 T = 10^19 bit/s > 2^63 - 1 = 9223372036854775807
        assertThatThrownBy(() -> Units.bitsPerSecond("10000000T"))
                .hasMessageContaining("too large").hasMessageContaining("9223372036854775807 bit/s");
    }

    @ParameterizedTest(name = "{0} = {1}/s")
    @CsvSource({
        // rr --rate 10k: 10 x 10^3 transactions/s
        "10k, 10000",
        "2.5k, 2500",
        "1m, 1000000",
        "1000/s, 1000",
        "0, 0",
    })
    void perSecondRates(String text, long expected) {
        assertThat(Units.perSecond(text, "transactions")).isEqualTo(expected);
    }

    @Test
    void aPerSecondRateBelowOneNamesItsUnit() {
        assertThatThrownBy(() -> Units.perSecond("0.5", "transactions"))
                .hasMessageContaining("below 1 transactions/s");
    }

    @ParameterizedTest(name = "{0} = {1} bytes")
    @CsvSource({
        // 64 x 2^10
        "64K, 65536",
        "64k, 65536",
        // 128 x 1024 = 131072, iperf3's TCP write
        "128KiB, 131072",
        "128KB, 131072",
        // 1.5 x 1024
        "1.5K, 1536",
        // 2^20 and 2^30
        "1M, 1048576",
        "1m, 1048576",
        "2G, 2147483648",
        // 2^40
        "1T, 1099511627776",
        "1220, 1220",
        "1220B, 1220",
        "0, 0",
    })
    void sizes(String text, long expected) {
        assertThat(Units.bytes(text)).isEqualTo(expected);
    }

    @Test
    void aFractionOfAByteIsRefused() {
        // 1.1 x 1024 = 1126.4
        assertThatThrownBy(() -> Units.bytes("1.1K"))
                .hasMessageContaining("'1.1K' is 1126.4 bytes, not a whole number of bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"64X", "-1", "ib", "64iB", "64KX"})
    void malformedSizesAreRefused(String text) {
        assertThatThrownBy(() -> Units.bytes(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("size").hasMessageContaining("allowed");
    }

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
        // decimal: 10 x 10^3, 2.5 x 10^6, 1 x 10^9
        "10k, 10000",
        "2.5M, 2500000",
        "1g, 1000000000",
        "1000, 1000",
    })
    void counts(String text, long expected) {
        assertThat(Units.count(text)).isEqualTo(expected);
    }

    @Test
    void aFractionalCountIsRefused() {
        // 1.2345 x 10^3 = 1234.5
        assertThatThrownBy(() -> Units.count("1.2345k")).hasMessageContaining("is 1234.5, not a whole number");
    }

    @ParameterizedTest(name = "{0} = {1} ns")
    @CsvSource({
        "500ms, 500000000",
        // 1.5 x 10^9
        "1.5s, 1500000000",
        // m is minutes: 2 x 60 x 10^9
        "2m, 120000000000",
        "2min, 120000000000",
        // 3600 x 10^9
        "1h, 3600000000000",
        "250us, 250000",
        "250µs, 250000",
        "1ns, 1",
        "0, 0",
        "10 s, 10000000000",
    })
    void durations(String text, long expectedNanos) {
        assertThat(Units.duration(text)).isEqualTo(Duration.ofNanos(expectedNanos));
    }

    @Test
    void aDurationNeedsAUnit() {
        assertThatThrownBy(() -> Units.duration("500"))
                .hasMessageContaining("'500' has no unit").hasMessageContaining("500ms or 500s");
        assertThatThrownBy(() -> Units.duration("5d")).hasMessageContaining("unknown unit 'd'");
        assertThatThrownBy(() -> Units.duration("0.5ns")).hasMessageContaining("not a whole number of ns");
    }

    @Test
    void aDurationNamedInItsUnitTakesABareNumberOrAUnit() {
        // --minms 500 and --minms 500ms are both 500 x 10^6 ns; --minms 2s is 2 x 10^9 ns
        assertThat(Units.duration("500", TimeUnit.MILLISECONDS)).isEqualTo(Duration.ofMillis(500));
        assertThat(Units.duration("500ms", TimeUnit.MILLISECONDS)).isEqualTo(Duration.ofMillis(500));
        assertThat(Units.duration("2s", TimeUnit.MILLISECONDS)).isEqualTo(Duration.ofSeconds(2));
        // 0.5 ms = 500000 ns
        assertThat(Units.duration("0.5", TimeUnit.MILLISECONDS)).isEqualTo(Duration.ofNanos(500_000));
    }

    @Test
    void aDurationAboveLongMaxNanosIsRefused() {
        // 2^63 ns is about 292 years; 300 years of hours is 2628000 h = 9.4608 x 10^18 ns
        assertThatThrownBy(() -> Units.duration("2628000h")).hasMessageContaining("too large");
    }

    @ParameterizedTest
    @CsvSource({
        // whole ms stay in ms: 10 x 10^6 ns; 1500 x 10^6 ns
        "10000000, 10 ms",
        "1500000000, 1500 ms",
        "0, 0 ms",
        // below a ms: 999 x 10^3 ns is 999 us, 1 ns is 1 ns, not 0 ms
        "999000, 999 us",
        "1, 1 ns",
        "1000001, 1000001 ns",
        "-1000000000, -1000 ms",
    })
    void aDurationIsWrittenExactly(long nanos, String expected) {
        assertThat(Units.text(Duration.ofNanos(nanos))).isEqualTo(expected);
        assertThat(Units.duration(expected.replace("-", "")).toNanos()).isEqualTo(Math.abs(nanos));
    }

    @Test
    void aDurationBeyondLongNanosIsWrittenInSeconds() {
        // 10^10 s x 10^9 ns/s = 10^19 ns, above Long.MAX_VALUE (about 9.22 x 10^18)
        assertThat(Units.text(Duration.ofSeconds(10_000_000_000L))).isEqualTo("10000000000 s");
    }
}
