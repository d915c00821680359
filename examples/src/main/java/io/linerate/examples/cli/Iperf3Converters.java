package io.linerate.examples.cli;

import io.linerate.core.Units;
import java.math.BigDecimal;
import java.time.Duration;
import picocli.CommandLine;

/**
 * picocli converters for the values of iperf3's client options as iperf3 3.12 reads them
 * ({@code iperf_parse_arguments} in its {@code iperf_api.c}): {@code -t} whole seconds, {@code -i}
 * decimal seconds, {@code -b} bits/s with decimal suffixes. Each error names the value and the
 * range or form allowed.
 */
final class Iperf3Converters {
    /** Longest {@code -t}, seconds: iperf3's {@code MAX_TIME}, one day. */
    static final long MAX_SECONDS = 86_400;
    /** Shortest non-zero {@code -i}, seconds, as text: iperf3's {@code MIN_INTERVAL}. */
    static final String MIN_INTERVAL_SECONDS_TEXT = "0.1";
    /** Shortest non-zero {@code -i}, seconds. */
    static final BigDecimal MIN_INTERVAL_SECONDS = new BigDecimal(MIN_INTERVAL_SECONDS_TEXT);
    /** Longest {@code -i}, seconds: iperf3's {@code MAX_INTERVAL}. */
    static final BigDecimal MAX_INTERVAL_SECONDS = BigDecimal.valueOf(60);

    private Iperf3Converters() {}

    /**
     * iperf3's {@code -t}: whole seconds, 1..{@value #MAX_SECONDS} (iperf3 3.12 reads it with
     * {@code atoi}, so it has no fractions; linerate refuses one rather than cut it off).
     */
    static final class WholeSeconds implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            long s;
            try {
                s = Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not whole seconds; allowed: 1.."
                        + MAX_SECONDS + " (iperf3's -t); for a fraction of a second give --duration, such as "
                        + "--duration 1500ms, instead of -t");
            }
            if (s < 1 || s > MAX_SECONDS) {
                throw new CommandLine.TypeConversionException(s + " seconds is out of range; allowed: 1.." + MAX_SECONDS
                        + " (iperf3's -t)");
            }
            return Duration.ofSeconds(s);
        }
    }

    /**
     * iperf3's {@code -i}: seconds between interval reports, decimals allowed; 0 (no interval
     * reports) or {@value #MIN_INTERVAL_SECONDS_TEXT}..60, iperf3's range.
     */
    static final class IntervalSeconds implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            BigDecimal s;
            try {
                s = new BigDecimal(value.strip());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value + "' is not seconds; allowed: 0 or "
                        + MIN_INTERVAL_SECONDS_TEXT + "..60 (iperf3's -i), such as 0.5");
            }
            if (s.signum() != 0 && (s.compareTo(MIN_INTERVAL_SECONDS) < 0 || s.compareTo(MAX_INTERVAL_SECONDS) > 0)) {
                throw new CommandLine.TypeConversionException(value.strip() + " seconds is out of range; allowed: 0 or "
                        + MIN_INTERVAL_SECONDS_TEXT + "..60 (iperf3's -i)");
            }
            return Duration.ofNanos(s.movePointRight(9).longValue());
        }
    }

    /**
     * iperf3's {@code -b}: bits/s per stream with decimal suffixes, as {@link Units#bitsPerSecond}
     * (iperf3 reads it with {@code unit_atof_rate}, 1000-based); 0 = unlimited. iperf3's burst
     * ({@code RATE/COUNT}) is refused: linerate paces with {@code --pacing-timer}.
     */
    static final class BitsPerSecond implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            if (value.contains("/")) {
                throw new CommandLine.TypeConversionException("'" + value + "': iperf3's burst (-b RATE/COUNT) is not "
                        + "supported; linerate paces each stream with --pacing-timer: give the rate alone, such as "
                        + value.substring(0, value.indexOf('/')));
            }
            try {
                return Units.bitsPerSecond(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }
}
