package io.linerate.examples.cli;

import io.linerate.core.Units;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import picocli.CommandLine;

/**
 * picocli converters: thin wrappers around {@link Units}, so that the command line and a library
 * user accept the same text; each error names the value and the form or range expected. A size,
 * count or duration with a leading {@code -} is parsed as the negative of its magnitude and left to
 * the option's own range check, which names the option's real range (a negative value is out of
 * every one of them); only rates are refused here, since 0 (unlimited) is allowed for each of them.
 */
final class Converters {
    private Converters() {}

    /** The value grammar, for the footer of every command's help. */
    static final String UNITS_FOOTER = "%nValues: " + Units.RATE_HELP + ".%n" + Units.SIZE_HELP + ".%n"
            + Units.COUNT_HELP + ".%n" + Units.DURATION_HELP + ".";

    /** {@code 500ms}, {@code 2s}, {@code 1.5s}, {@code 2m} (minutes), {@code 250us}: a unit is required, except for 0. */
    static final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return signed(value, v -> Units.duration(v), Duration::negated);
        }
    }

    /** For options named in milliseconds ({@code --minms}): a bare number is ms, and a unit may be given. */
    static final class MillisConverter implements CommandLine.ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            return signed(value, v -> Units.duration(v, TimeUnit.MILLISECONDS), Duration::negated);
        }
    }

    /** A rate in bit/s with decimal suffixes: {@code 0} (unlimited), {@code 500k}, {@code 100M}, {@code 2.5G}. */
    static final class RateConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parsed(() -> Units.bitsPerSecond(value));
        }
    }

    /** Transactions per second with decimal suffixes: {@code 10k}. */
    static final class TransactionRateConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return parsed(() -> Units.perSecond(value, "transactions"));
        }
    }

    /** A size in bytes that fits an int, 1024-based suffixes: {@code 1220}, {@code 64K}, {@code 1M}. */
    static final class SizeConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            long v = signed(value, Units::bytes, n -> -n);
            if (v > Integer.MAX_VALUE || v < -Integer.MAX_VALUE) {
                throw new CommandLine.TypeConversionException("size '" + value.strip() + "' is " + v
                        + " bytes; allowed: at most " + Integer.MAX_VALUE + " bytes, within the option's own range");
            }
            return (int) v;
        }
    }

    /** A byte count, 1024-based suffixes: {@code 10M}, {@code 1G}. */
    static final class ByteCountConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return signed(value, Units::bytes, n -> -n);
        }
    }

    /** A message count, decimal suffixes: {@code 1000}, {@code 10k}, {@code 1M}. */
    static final class CountConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return signed(value, Units::count, n -> -n);
        }
    }

    /**
     * Parses {@code value}, or the text after its leading {@code -} and negates the result, so that
     * the option's range check refuses a negative value with the option's real range.
     */
    private static <T> T signed(String value, Function<String, T> parse, UnaryOperator<T> negate) {
        String v = value == null ? null : value.strip();
        if (v != null && v.startsWith("-") && v.length() > 1) {
            String magnitude = v.substring(1);
            return negate.apply(parsed(() -> parse.apply(magnitude)));
        }
        return parsed(() -> parse.apply(value));
    }

    private static <T> T parsed(Supplier<T> parse) {
        try {
            return parse.get();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.TypeConversionException(e.getMessage());
        }
    }

    /** A whole number of type int; the option's own range is checked where it is used. */
    static final class IntConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            String v = value.strip();
            try {
                return Integer.parseInt(v);
            } catch (NumberFormatException e) {
                boolean digits = !v.isEmpty() && v.chars().skip(v.charAt(0) == '-' ? 1 : 0).allMatch(Character::isDigit)
                        && v.length() > (v.charAt(0) == '-' ? 1 : 0);
                throw new CommandLine.TypeConversionException("'" + value + (digits
                        ? "' is too large a number for this option; its allowed range is in --help"
                        : "' is not a whole number; allowed: digits only, within the option's range (see --help)"));
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
