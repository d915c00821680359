package io.linerate.regression;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statistic a policy compares: {@code mean}, {@code min}, {@code max} or a percentile
 * {@code pNN} with 0 &lt; NN &lt;= 100 (decimals allowed, such as {@code p99.9}).
 *
 * <p>Percentiles use the nearest-rank definition (the inverse of the empirical distribution
 * function, definition 1 of Hyndman and Fan, "Sample Quantiles in Statistical Packages", The
 * American Statistician 50(4), 1996): the value at rank {@code ceil(NN/100 * n)} of the {@code n}
 * sorted values (1-based), with the rank computed in exact decimal arithmetic so that, for
 * example, p10 of 30 values is rank 3; {@code p100} is the maximum. {@code p0} is not defined by
 * nearest rank and is refused.
 *
 * @param label the text as written in the policy
 * @param percent the percentile for {@code pNN}; null for mean, min and max
 */
public record Compare(String label, BigDecimal percent) {
    private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,3}(?:\\.\\d+)?)");

    /**
     * @param label {@code mean}, {@code min}, {@code max} or {@code pNN}
     * @return the parsed statistic
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public static Compare parse(String label) {
        if (label.equals("mean") || label.equals("min") || label.equals("max")) {
            return new Compare(label, null);
        }
        Matcher m = PERCENTILE.matcher(label);
        if (m.matches()) {
            BigDecimal p = new BigDecimal(m.group(1));
            if (p.signum() > 0 && p.compareTo(BigDecimal.valueOf(100)) <= 0) {
                return new Compare(label, p);
            }
        }
        throw new IllegalArgumentException("compare '" + label
                + "' is not allowed; allowed: mean, min, max or pNN with 0 < NN <= 100 (such as p50, p99.9)");
    }

    /**
     * @param values at least one finite value, in any order (not modified)
     * @return the statistic of {@code values}
     * @throws IllegalArgumentException when {@code values} is empty
     */
    public double of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to compute " + label + " of");
        }
        switch (label) {
            case "mean":
                double sum = 0;
                for (double v : values) {
                    sum += v;
                }
                return sum / values.length;
            case "min":
                return Arrays.stream(values).min().getAsDouble();
            case "max":
                return Arrays.stream(values).max().getAsDouble();
            default:
                double[] sorted = values.clone();
                Arrays.sort(sorted);
                return sorted[nearestRank(percent, sorted.length) - 1];
        }
    }

    /**
     * @param percent 0 &lt; percent &lt;= 100
     * @param n number of values, at least 1
     * @return the 1-based nearest rank {@code ceil(percent/100 * n)}, exactly
     */
    public static int nearestRank(BigDecimal percent, int n) {
        BigDecimal r = percent.multiply(BigDecimal.valueOf(n)).divide(BigDecimal.valueOf(100));
        int rank = r.setScale(0, java.math.RoundingMode.CEILING).intValueExact();
        return Math.max(1, Math.min(n, rank));
    }
}
