package io.linerate.regression.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/** Number formatting for reports, always with {@link Locale#ROOT}. */
public final class Fmt {
    private Fmt() {}

    /**
     * @return {@code v} with 4 significant digits, or one decimal when |v| >= 1000, half-up, trailing
     *     zeros removed, never in exponent form ({@code 92.1}, {@code 1234.6}, {@code 0.0123},
     *     {@code 1000}); {@code n/a} for null or non-finite values
     */
    public static String num(Double v) {
        if (v == null || !Double.isFinite(v)) {
            return "n/a";
        }
        if (v == 0) {
            return "0";
        }
        BigDecimal d = new BigDecimal(Double.toString(v));
        d = Math.abs(v) >= 1000 ? d.setScale(1, RoundingMode.HALF_UP) : d.round(new MathContext(4, RoundingMode.HALF_UP));
        return d.stripTrailingZeros().toPlainString();
    }

    /** @return a fraction as a signed percentage with one decimal, such as {@code -7.1%} */
    public static String signedPercent(Double fraction) {
        if (fraction == null || !Double.isFinite(fraction)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
    }

    /** @return a fraction as a percentage, such as {@code 5%} */
    public static String percent(double fraction) {
        return num(fraction * 100) + "%";
    }
}
