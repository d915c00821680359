package io.linerate.core;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses the text forms of rates, sizes, counts and durations, one grammar per kind of value, so
 * that the command line and a library user accept the same text. A value is a non-negative
 * decimal number ({@code 2.5}, {@code .5}, {@code 100}; no sign, no exponent), an optional space,
 * then a suffix:
 *
 * <ul>
 *   <li><b>rates</b> ({@link #bitsPerSecond}, {@link #perSecond}): {@code k m g t} in any case,
 *       decimal (10^3, 10^6, 10^9, 10^12), as iperf3's {@code -b}: {@code 2.5G} = 2 500 000 000
 *       bit/s, {@code 100m} = 100 000 000 bit/s. Rounded to the nearest whole unit (half up).
 *       {@code 0} means unlimited; a non-zero value below 1 is refused, since it would round to
 *       0, which means something else;</li>
 *   <li><b>sizes and byte counts</b> ({@link #bytes}): {@code K M G T} in any case, 1024-based
 *       as iperf3's {@code -l} and {@code -n}: {@code 64K} = 65 536 bytes, {@code 1.5K} = 1536;
 *       {@code KiB}, {@code MiB}, ... and a trailing {@code B} are also accepted. The result must
 *       be a whole number of bytes;</li>
 *   <li><b>message counts</b> ({@link #count}): {@code k m g t} in any case, decimal:
 *       {@code 10k} = 10 000. The result must be a whole number;</li>
 *   <li><b>durations</b> ({@link #duration(String)}): a unit is required, {@code ns us ms s m h}
 *       ({@code µs}, {@code min} also accepted; {@code m} is minutes), except for {@code 0}. A
 *       value whose name carries its unit ({@code --minms}) is parsed with
 *       {@link #duration(String, TimeUnit)}: a bare number is in that unit, and a unit may still
 *       be given ({@code 500} and {@code 500ms} are the same). The result must be a whole number
 *       of nanoseconds.</li>
 * </ul>
 *
 * <p>Every value is at most {@link Long#MAX_VALUE} of its base unit (bit/s, 1/s, bytes, messages,
 * ns). Every error is an {@link IllegalArgumentException} whose message names the text and the
 * allowed form or range; options' own ranges are checked where the value is used.
 */
public final class Units {
    /** The grammar of rates in one line, for help texts. */
    public static final String RATE_HELP = "rates: decimal k m g t suffixes in any case (10^3..10^12), decimals "
            + "allowed: 2.5G = 2500000000, 100m = 100000000 (as iperf3); 0 = unlimited; a non-zero rate below 1 is refused";
    /** The grammar of sizes in one line, for help texts. */
    public static final String SIZE_HELP = "sizes and byte counts: K M G T suffixes in any case, 1024-based "
            + "(as iperf3's -l and -n): 64K = 65536, 1.5K = 1536";
    /** The grammar of message counts in one line, for help texts. */
    public static final String COUNT_HELP = "message counts: decimal k m g t suffixes in any case: 10k = 10000";
    /** The grammar of durations in one line, for help texts. */
    public static final String DURATION_HELP = "durations need a unit: ns us ms s m h (m = minutes), such as 500ms "
            + "or 1.5s; options named in a unit (--minms) take a bare number in it, or a unit";

    private static final Pattern VALUE = Pattern.compile("([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*(\\S*)");
    /** A bit rate's suffix: a decimal prefix, then optionally bit/s, b/s, bps or b (lower case: B is bytes). */
    private static final Pattern BIT_RATE_SUFFIX = Pattern.compile("([kKmMgGtT]?)(?:bit/s|b/s|bps|b)?");
    private static final Pattern PER_SECOND_SUFFIX = Pattern.compile("([kKmMgGtT]?)(?:/s)?");
    private static final Pattern SIZE_SUFFIX = Pattern.compile("(?i)(?:([kmgt])(?:i?b)?|b)?");
    private static final Pattern COUNT_SUFFIX = Pattern.compile("([kKmMgGtT]?)");
    private static final BigDecimal MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private Units() {}

    /**
     * @param text a rate in bit/s, such as {@code 0}, {@code 500k}, {@code 100M}, {@code 2.5g};
     *     {@code bit/s}, {@code b/s}, {@code bps} or {@code b} may follow
     * @return bit/s, rounded to the nearest whole bit/s; 0 for unlimited
     * @throws IllegalArgumentException for anything else, a non-zero rate below 1 bit/s, or a
     *     rate above {@link Long#MAX_VALUE} bit/s, naming the text and the allowed range
     */
    public static long bitsPerSecond(String text) {
        return rate(text, "bit/s", BIT_RATE_SUFFIX);
    }

    /**
     * @param text a rate in events per second (transactions, messages), such as {@code 10k} or
     *     {@code 2.5m}; {@code /s} may follow
     * @param what the events counted, for the error message and the unit, such as {@code transactions}
     * @return events per second, rounded to the nearest whole number; 0 where the option gives 0 a meaning
     * @throws IllegalArgumentException for anything else or a non-zero rate below 1/s
     */
    public static long perSecond(String text, String what) {
        return rate(text, Objects.requireNonNull(what, "what") + "/s", PER_SECOND_SUFFIX);
    }

    /**
     * @param text bytes, such as {@code 1220}, {@code 64K}, {@code 128KiB}, {@code 1.5M}, {@code 2G}
     * @return bytes, with K = 1024, M = 1024^2, G = 1024^3, T = 1024^4
     * @throws IllegalArgumentException for anything else, a fraction of a byte or more than
     *     {@link Long#MAX_VALUE} bytes
     */
    public static long bytes(String text) {
        Matcher m = match(text, "size", "bytes, such as 1220, 64K or 1.5M");
        Matcher s = suffix(SIZE_SUFFIX, m, text, "size", "K, M, G, T (1024-based), optionally followed by iB or B");
        long mult = switch (s.group(1) == null ? "" : s.group(1).toLowerCase(Locale.ROOT)) {
            case "k" -> 1L << 10;
            case "m" -> 1L << 20;
            case "g" -> 1L << 30;
            case "t" -> 1L << 40;
            default -> 1L;
        };
        return whole(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(mult)), text, "size", "bytes");
    }

    /**
     * @param text a count, such as {@code 1000}, {@code 10k}, {@code 2.5M}
     * @return the count, with k = 10^3, m = 10^6, g = 10^9, t = 10^12
     * @throws IllegalArgumentException for anything else, a fraction or more than {@link Long#MAX_VALUE}
     */
    public static long count(String text) {
        Matcher m = match(text, "count", "a whole number, such as 1000 or 10k");
        Matcher s = suffix(COUNT_SUFFIX, m, text, "count", "k, m, g, t (decimal)");
        long mult = decimalMultiplier(s.group(1));
        return whole(new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(mult)), text, "count", "");
    }

    /**
     * @param text a duration with its unit, such as {@code 500ms}, {@code 1.5s}, {@code 2m},
     *     {@code 250us}, {@code 1h}; a bare {@code 0} is accepted
     * @return the duration, a whole number of ns
     * @throws IllegalArgumentException without a unit (other than for 0), with an unknown unit,
     *     for a fraction of a ns or above {@link Long#MAX_VALUE} ns
     */
    public static Duration duration(String text) {
        return duration(text, null);
    }

    /**
     * Parses a duration for a value whose name carries its unit, such as {@code --minms}.
     *
     * @param text a bare number in {@code bareUnit} ({@code 500}) or a duration with its own unit
     *     ({@code 500ms}, {@code 2s})
     * @param bareUnit the unit of a bare number; null when a unit is required
     * @return the duration, a whole number of ns
     * @throws IllegalArgumentException as {@link #duration(String)}
     */
    public static Duration duration(String text, TimeUnit bareUnit) {
        Matcher m = match(text, "duration", "a number with unit ns, us, ms, s, m or h, such as 500ms or 2s");
        BigDecimal n = new BigDecimal(m.group(1));
        String unit = m.group(2);
        long nanosPerUnit;
        if (unit.isEmpty()) {
            if (bareUnit == null && n.signum() != 0) {
                throw new IllegalArgumentException("duration '" + text.strip() + "' has no unit; allowed units: "
                        + "ns, us, ms, s, m (minutes), h, such as " + m.group(1) + "ms or " + m.group(1) + "s");
            }
            nanosPerUnit = bareUnit == null ? 1L : bareUnit.toNanos(1);
        } else {
            nanosPerUnit = switch (unit.toLowerCase(Locale.ROOT)) {
                case "ns" -> 1L;
                case "us", "µs" -> 1_000L;
                case "ms" -> 1_000_000L;
                case "s" -> 1_000_000_000L;
                case "m", "min" -> 60_000_000_000L;
                case "h" -> 3_600_000_000_000L;
                default -> throw unknownUnit(text, unit);
            };
        }
        return Duration.ofNanos(whole(n.multiply(BigDecimal.valueOf(nanosPerUnit)), text, "duration", "ns"));
    }

    /**
     * Writes a duration exactly, in the largest of ms, us and ns that holds it as a whole number,
     * so that a value below a millisecond is not shown as 0 ms; {@link #duration(String)} reads it
     * back.
     *
     * @param d any duration, negative too
     * @return {@code 10 ms}, {@code 250 us}, {@code 1 ns}; a duration beyond {@link Long#MAX_VALUE}
     *     ns in whole seconds, {@code 9223372037 s}, or as {@link Duration#toString()} when it has a fraction
     */
    public static String text(Duration d) {
        Objects.requireNonNull(d, "d");
        long nanos;
        try {
            nanos = d.toNanos();
        } catch (ArithmeticException e) {
            return d.getNano() == 0 ? d.getSeconds() + " s" : d.toString();
        }
        if (nanos % 1_000_000L == 0) {
            return nanos / 1_000_000L + " ms";
        }
        return nanos % 1_000L == 0 ? nanos / 1_000L + " us" : nanos + " ns";
    }

    private static long rate(String text, String unit, Pattern suffixes) {
        Matcher m = match(text, "rate", "a number of " + unit + " with an optional k, m, g or t suffix, such as 100M");
        Matcher s = suffix(suffixes, m, text, "rate", "k, m, g, t (decimal), optionally followed by " + unit);
        BigDecimal v = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(decimalMultiplier(s.group(1))));
        if (v.signum() != 0 && v.compareTo(BigDecimal.ONE) < 0) {
            throw new IllegalArgumentException("rate '" + text.strip() + "' is below 1 " + unit
                    + ", and 0 would mean unlimited; allowed: 0 or 1.." + Long.MAX_VALUE + " " + unit);
        }
        return bounded(v.setScale(0, RoundingMode.HALF_UP), text, "rate", unit);
    }

    private static Matcher suffix(Pattern allowed, Matcher value, String text, String kind, String form) {
        Matcher s = allowed.matcher(value.group(2));
        if (!s.matches()) {
            throw new IllegalArgumentException(kind + " '" + text.strip() + "' has unknown suffix '" + value.group(2)
                    + "'; allowed: " + form);
        }
        return s;
    }

    private static Matcher match(String text, String kind, String form) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(kind + " is empty; allowed: " + form);
        }
        String t = text.strip();
        if (t.startsWith("-")) {
            throw new IllegalArgumentException(kind + " '" + t + "' is negative; allowed: 0 or more, " + form);
        }
        Matcher m = VALUE.matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException(kind + " '" + t + "' is not a number; allowed: " + form);
        }
        return m;
    }

    private static long decimalMultiplier(String prefix) {
        return switch (prefix == null ? "" : prefix.toLowerCase(Locale.ROOT)) {
            case "k" -> 1_000L;
            case "m" -> 1_000_000L;
            case "g" -> 1_000_000_000L;
            case "t" -> 1_000_000_000_000L;
            default -> 1L;
        };
    }

    private static long whole(BigDecimal v, String text, String kind, String unit) {
        if (v.stripTrailingZeros().scale() > 0) {
            throw new IllegalArgumentException(kind + " '" + text.strip() + "' is " + v.stripTrailingZeros().toPlainString()
                    + (unit.isEmpty() ? "" : " " + unit) + ", not a whole number" + (unit.isEmpty() ? "" : " of " + unit)
                    + "; allowed: whole " + (unit.isEmpty() ? "numbers" : unit) + ", 0.." + Long.MAX_VALUE);
        }
        return bounded(v, text, kind, unit);
    }

    private static long bounded(BigDecimal v, String text, String kind, String unit) {
        if (v.compareTo(MAX) > 0) {
            throw new IllegalArgumentException(kind + " '" + text.strip() + "' is too large; allowed: 0.."
                    + Long.MAX_VALUE + (unit.isEmpty() ? "" : " " + unit));
        }
        return v.longValueExact();
    }

    private static IllegalArgumentException unknownUnit(String text, String unit) {
        return new IllegalArgumentException("duration '" + text.strip() + "' has unknown unit '" + unit
                + "'; allowed: ns, us, ms, s, m (minutes), h");
    }
}
