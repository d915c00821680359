package io.linerate.regression.internal;

import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;

/**
 * The one-sided Mann-Whitney U test (Mann and Whitney, "On a Test of Whether one of Two Random
 * Variables is Stochastically Larger than the Other", Annals of Mathematical Statistics 18(1), 1947)
 * through Apache Commons Statistics
 * ({@code MannWhitneyUTest} with {@link PValueMethod#EXACT}): the p-value is exact when the samples
 * have no tied values; with ties the library uses the normal approximation with tie and
 * continuity correction. Also the smallest p-value the exact test can reach.
 */
public final class MannWhitney {
    private MannWhitney() {}

    /**
     * @param x first sample, at least one value
     * @param y second sample, at least one value
     * @return the p-value of the hypothesis that {@code x} is stochastically greater than {@code y}
     */
    public static double pGreater(double[] x, double[] y) {
        return MannWhitneyUTest.withDefaults()
                .with(AlternativeHypothesis.GREATER_THAN)
                .with(PValueMethod.EXACT)
                .test(x, y)
                .getPValue();
    }

    /**
     * @return {@code 1 / C(n + m, n)}, the smallest one-sided p-value the exact test can give with
     *     samples of sizes {@code n} and {@code m} (all of one sample above all of the other)
     */
    public static double smallestPValue(int n, int m) {
        double c = 1;
        for (int i = 1; i <= n; i++) {
            c = c * (m + i) / i;
        }
        return 1 / c;
    }

    /**
     * @return the smallest equal sample size whose smallest one-sided p-value is below {@code alpha}
     *     (a verdict needs {@code p < alpha})
     */
    public static int minRunsFor(double alpha) {
        int k = 1;
        while (smallestPValue(k, k) >= alpha) {
            k++;
        }
        return k;
    }
}
