package io.linerate.regression.internal;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.Locale;

/** Number formatting for reports, always with {@link Locale#ROOT}. */
public final class Fmt {
    private Fmt() {}

    /**
     * @return {@code v} with one decimal when |v| >= 100, otherwise with 4 significant digits,
     *     trailing zeros removed; {@code n/a} for null or non-finite values
     */
    public static String num(Double v) {
        if (v == null || !Double.isFinite(v)) {
            return "n/a";
        }
        if (Math.abs(v) >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (v == 0) {
            return "0";
        }
        return new BigDecimal(v).round(new MathContext(4)).stripTrailingZeros().toPlainString();
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
