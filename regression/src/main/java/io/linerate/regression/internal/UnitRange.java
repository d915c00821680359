package io.linerate.regression.internal;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Which values a metric's unit allows. Every value must be finite (no NaN, no infinity). A unit
 * that measures an amount, compared without regard to case and surrounding blanks, also forbids
 * a negative value:
 * <ul>
 * <li>a duration: {@code ns}, {@code us}, {@code µs}, {@code ms}, {@code s}, {@code sec},
 * {@code min}, {@code h};</li>
 * <li>a size: {@code bit}, {@code b}, {@code byte}, {@code B} with an SI or IEC prefix
 * ({@code KiB}, {@code Mbit}, {@code GB});</li>
 * <li>a count: {@code packets}, {@code frames}, {@code datagrams}, {@code messages},
 * {@code segments}, {@code transactions}, {@code requests}, {@code ops}, {@code instructions},
 * {@code cycles}, {@code count} (singular or plural);</li>
 * <li>a percentage: {@code %};</li>
 * <li>a ratio of two of these, such as a rate ({@code Mbit/s}, {@code frames/s},
 * {@code transactions/sec}) or a cost ({@code us/KiB}, netperf's service demand), and the
 * rates {@code bps}, {@code kbps}, {@code Mbps}, {@code Gbps}, {@code pps}.</li>
 * </ul>
 * Any other unit, and no unit, allows any finite value.
 */
public final class UnitRange {
    private static final Set<String> DURATIONS = Set.of("ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "sec", "secs",
            "min", "h");
    private static final Pattern SIZE = Pattern.compile("(?:[kmgtpe]i?)?(?:b|bits?|bytes?)");
    private static final Pattern COUNT = Pattern.compile("(?:packet|pkt|frame|datagram|message|msg|segment|transaction"
            + "|request|op|instruction|insn|cycle)s?|count");
    private static final Pattern RATE = Pattern.compile("[kmgt]?bps|pps");

    private UnitRange() {}

    /**
     * @param value a sample's value
     * @param unit its unit; empty or null when unitless
     * @return null when {@code unit} allows {@code value}; otherwise why not, naming the value, the
     *     unit and what is allowed
     */
    public static String refusal(double value, String unit) {
        String u = unit == null ? "" : unit;
        if (!Double.isFinite(value)) {
            return "value " + value + " is not allowed; allowed: a finite number";
        }
        if (value < 0 && nonNegative(u)) {
            return "value " + Fmt.num(value) + " is not allowed for unit " + u.strip() + "; allowed: a finite number"
                    + " >= 0 (a rate, size, count, duration or percentage is never negative)";
        }
        return null;
    }

    /** @return whether {@code unit} measures an amount, which is never negative */
    static boolean nonNegative(String unit) {
        String u = unit.strip().toLowerCase(Locale.ROOT);
        if (u.isEmpty()) {
            return false;
        }
        int slash = u.indexOf('/');
        if (slash >= 0) {
            return u.indexOf('/', slash + 1) < 0 && amount(u.substring(0, slash)) && amount(u.substring(slash + 1));
        }
        return amount(u) || u.equals("%") || RATE.matcher(u).matches();
    }

    private static boolean amount(String u) {
        return DURATIONS.contains(u) || SIZE.matcher(u).matches() || COUNT.matcher(u).matches();
    }
}
