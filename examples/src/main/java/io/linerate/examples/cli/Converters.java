package io.linerate.examples.cli;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** picocli converters for durations, rates and byte values; each error names the value and the form expected. */
final class Converters {
    private Converters() {}

    private static final Pattern NUMBER_UNIT = Pattern.compile("([0-9]+(?:\\.[0-9]+)?)\\s*([A-Za-z]*)");

    /**
     * {@code 500ms}, {@code 2s}, {@code 1.5s}, {@code 2m}, {@code 250us}. A unit is required (a bare
     * {@code 500} could mean seconds or milliseconds), except for {@code 0}.
     */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            Matcher m = NUMBER_UNIT.matcher(value.strip());
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a duration; use a number with unit ns, us, ms, s or m, such as 500ms or 2s");
            }
            BigDecimal n = new BigDecimal(m.group(1));
            if (m.group(2).isEmpty() && n.signum() != 0) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' has no unit; allowed units: ns, us, ms, s, m, such as " + value.strip() + "ms or "
                        + value.strip() + "s");
            }
            long nanosPerUnit = switch (m.group(2).toLowerCase(Locale.ROOT)) {
                case "ns" -> 1L;
                case "us" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "", "s" -> 1_000_000_000L;
                case "m", "min" -> 60_000_000_000L;
                default -> throw new CommandLine.TypeConversionException("'" + value
                        + "' has unknown unit '" + m.group(2) + "'; allowed: ns, us, ms, s, m");
            };
            BigDecimal nanos = n.multiply(BigDecimal.valueOf(nanosPerUnit));
            if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new CommandLine.TypeConversionException("'" + value + "' is too long; allowed: up to 1 day");
            }
            return Duration.ofNanos(nanos.longValue());
        }
    }

    /**
     * A rate in bit/s with decimal suffixes: {@code 0} (unlimited), {@code 500k}, {@code 100M},
     * {@code 2.5G}, {@code 10T}; a trailing {@code bit/s}, {@code bps} or {@code b} is accepted.
     */
    static final class RateConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            String v = value.strip();
            if (v.startsWith("-")) {
                throw new CommandLine.TypeConversionException("rate '" + value
                        + "' is negative; allowed: 0 (unlimited) or a positive bit/s value such as 100M");
            }
            v = v.replaceFirst("(?i)(bit/s|bps|b)$", "");
            Matcher m = NUMBER_UNIT.matcher(v);
            if (!m.matches()) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a rate; use bit/s with an optional k, M, G or T suffix, such as 100M");
            }
            long mult = switch (m.group(2)) {
                case "" -> 1L;
                case "k", "K" -> 1_000L;
                case "M" -> 1_000_000L;
                case "G", "g" -> 1_000_000_000L;
                case "T", "t" -> 1_000_000_000_000L;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' has unknown suffix '"
                        + m.group(2) + "'; allowed: k, M, G, T (decimal)");
            };
            BigDecimal bps = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(mult));
            if (bps.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
                throw new CommandLine.TypeConversionException("rate '" + value + "' is too large; allowed: up to "
                        + Long.MAX_VALUE + " bit/s");
            }
            return bps.longValue();
        }
    }

    /** A whole number of type int; the option's own range is checked where it is used. */
    static final class IntConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                return Integer.parseInt(value.strip());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a whole number; allowed: -2147483648..2147483647 (and the option's own range)");
            }
        }
    }

    /** A whole number of type long, without suffixes. */
    static final class LongConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return Long.parseLong(value.strip());
            } catch (NumberFormatException e) {
                throw new CommandLine.TypeConversionException("'" + value
                        + "' is not a whole number; allowed: digits only, up to 9223372036854775807");
            }
        }
    }

    /** A byte (0..255) in decimal or with {@code 0x}: a TOS / traffic class value. */
    static final class ByteConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return hexOrDecimal(value, 0, 255, "'" + value + "' is not a number; allowed: 0..255 or 0x00..0xff",
                    value + " is out of range; allowed: 0..255 or 0x00..0xff");
        }
    }

    /**
     * Parses {@code 0x}-prefixed hexadecimal or decimal within {@code [min, max]}.
     *
     * @throws CommandLine.TypeConversionException with {@code notNumber} or {@code outOfRange}
     */
    static int hexOrDecimal(String value, int min, int max, String notNumber, String outOfRange) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        int n;
        try {
            n = v.startsWith("0x") ? Integer.parseInt(v.substring(2), 16) : Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException(notNumber);
        }
        if (n < min || n > max) {
            throw new CommandLine.TypeConversionException(outOfRange);
        }
        return n;
    }
}
