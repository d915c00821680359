package io.linerate.core.search;

import io.linerate.core.Units;
import java.math.BigDecimal;
import java.util.Locale;

/**
 * How narrow the search interval must get before a search stops: an absolute rate in bit/s, or a
 * fraction of the current upper bound (TRex's default is a percentage).
 *
 * @param absoluteBitsPerSecond the width in bit/s, or 0 when {@code fraction} is used
 * @param fraction the width as a fraction of the upper bound, 0 &lt; f &lt; 0.5, or 0 when the width is absolute
 */
public record Resolution(long absoluteBitsPerSecond, double fraction) {
    /** The default: 1 % of the current upper bound. */
    public static final Resolution DEFAULT = percent(1);

    /** @throws IllegalArgumentException unless exactly one of the two is set, within range */
    public Resolution {
        boolean abs = absoluteBitsPerSecond != 0;
        boolean rel = fraction != 0;
        if (abs == rel) {
            throw new IllegalArgumentException("resolution needs exactly one of an absolute rate and a fraction; got "
                    + absoluteBitsPerSecond + " bit/s and " + fraction);
        }
        if (abs && absoluteBitsPerSecond < 0) {
            throw new IllegalArgumentException("resolution " + absoluteBitsPerSecond
                    + " bit/s is out of range; allowed: more than 0 bit/s");
        }
        if (rel && !(fraction > 0 && fraction < 0.5)) {
            throw new IllegalArgumentException("resolution " + format(fraction * 100) + "% is out of range; allowed: "
                    + "more than 0% and less than 50% of the upper bound");
        }
    }

    /** @return a resolution of {@code p} percent of the current upper bound, 0 &lt; p &lt; 50 */
    public static Resolution percent(double p) {
        return new Resolution(0, p / 100.0);
    }

    /** @return an absolute resolution, bit/s, more than 0 */
    public static Resolution absolute(long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("resolution " + bitsPerSecond + " bit/s is out of range; allowed: more than 0 bit/s");
        }
        return new Resolution(bitsPerSecond, 0);
    }

    /**
     * @param text a percentage such as {@code 1%} or {@code 0.5%}, or a rate in {@link Units#bitsPerSecond}'s
     *     grammar such as {@code 1M}
     * @return the resolution
     * @throws IllegalArgumentException naming the text and the allowed forms and range
     */
    public static Resolution parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("resolution is empty; allowed: a percentage such as 1% or a rate such as 1M");
        }
        String t = text.strip();
        if (t.endsWith("%")) {
            String n = t.substring(0, t.length() - 1).strip();
            BigDecimal p;
            try {
                p = new BigDecimal(n);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("resolution '" + t + "' is not a percentage; allowed: more than 0% "
                        + "and less than 50%, such as 1% or 0.5%");
            }
            if (p.signum() <= 0 || p.compareTo(BigDecimal.valueOf(50)) >= 0) {
                throw new IllegalArgumentException("resolution '" + t + "' is out of range; allowed: more than 0% and "
                        + "less than 50% of the upper bound");
            }
            return percent(p.doubleValue());
        }
        long v;
        try {
            v = Units.bitsPerSecond(t);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resolution '" + t + "' is neither a percentage (such as 1%) nor a rate: "
                    + e.getMessage());
        }
        if (v == 0) {
            throw new IllegalArgumentException("resolution '" + t + "' is 0 bit/s; allowed: more than 0 bit/s, or a "
                    + "percentage such as 1%");
        }
        return absolute(v);
    }

    /**
     * @param upperBitsPerSecond the current upper bound of the search, bit/s
     * @return the width in bit/s at that upper bound, at least 1
     */
    public long bitsPerSecondAt(long upperBitsPerSecond) {
        return absoluteBitsPerSecond != 0 ? absoluteBitsPerSecond
                : Math.max(1, (long) Math.floor(fraction * upperBitsPerSecond));
    }

    /** @return {@code 1%} or {@code 1000000 bit/s} */
    @Override
    public String toString() {
        return absoluteBitsPerSecond != 0 ? absoluteBitsPerSecond + " bit/s" : format(fraction * 100) + "% of the upper bound";
    }

    private static String format(double v) {
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString().toLowerCase(Locale.ROOT);
    }
}
