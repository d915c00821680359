package io.linerate.regression.internal;

import java.util.Arrays;
import org.apache.commons.statistics.inference.AlternativeHypothesis;
import org.apache.commons.statistics.inference.MannWhitneyUTest;
import org.apache.commons.statistics.inference.PValueMethod;

/**
 * The one-sided Mann-Whitney U test (Mann and Whitney, "On a Test of Whether one of Two Random
 * Variables is Stochastically Larger than the Other", Annals of Mathematical Statistics 18(1), 1947).
 *
 * <p>Up to {@link #EXACT_LIMIT} values in both samples together (25 a side), the p-value is exact, ties
 * included: it is the share of the {@code C(n + m, n)} ways of choosing which pooled values form
 * the first sample whose rank sum (tied values share their mid-rank) is at least the observed one,
 * the permutation distribution conditional on the tie pattern (Lehmann, Nonparametrics, 1975,
 * section 1.4). It is counted by dynamic programming over the groups of tied values, not
 * approximated. Above the limit the normal approximation with tie and continuity correction of
 * Apache Commons Statistics ({@code MannWhitneyUTest}, {@link PValueMethod#ASYMPTOTIC}) is used.
 */
public final class MannWhitney {
    /** Largest {@code n + m} for which the p-value is exact. */
    public static final int EXACT_LIMIT = 50;

    private MannWhitney() {}

    /**
     * @param x first sample, at least one value
     * @param y second sample, at least one value
     * @return the p-value of the hypothesis that {@code x} is stochastically greater than {@code y}
     * @throws IllegalArgumentException when a sample is empty
     */
    public static double pGreater(double[] x, double[] y) {
        return tails(x, y)[0];
    }

    /**
     * Both one-sided p-values at once (one count of the distribution serves both).
     *
     * @param x first sample, at least one value
     * @param y second sample, at least one value
     * @return {@code {p(x greater than y), p(y greater than x)}}
     * @throws IllegalArgumentException when a sample is empty
     */
    public static double[] tails(double[] x, double[] y) {
        if (x.length == 0 || y.length == 0) {
            throw new IllegalArgumentException("Mann-Whitney needs at least one value per sample; got "
                    + x.length + " and " + y.length);
        }
        if (x.length + y.length > EXACT_LIMIT) {
            return new double[] {asymptotic(x, y), asymptotic(y, x)};
        }
        return exact(x, y);
    }

    private static double asymptotic(double[] x, double[] y) {
        return MannWhitneyUTest.withDefaults()
                .with(AlternativeHypothesis.GREATER_THAN)
                .with(PValueMethod.ASYMPTOTIC)
                .test(x, y)
                .getPValue();
    }

    /**
     * {@code {P(T >= t), P(T <= t)}} for the doubled mid-rank sum {@code T} of a random n-subset of
     * the pooled values and {@code t} that of {@code x}, by counting subsets. (y greater than x is
     * x's rank sum being small: the rank sums of x and y add up to a constant.)
     */
    private static double[] exact(double[] x, double[] y) {
        int n = x.length;
        int total = n + y.length;
        double[] pooled = new double[total];
        System.arraycopy(x, 0, pooled, 0, n);
        System.arraycopy(y, 0, pooled, n, y.length);
        Arrays.sort(pooled);
        // tie groups: sizes and doubled mid-ranks (positions i..j, 1-based, have mid-rank (i + j) / 2)
        int[] size = new int[total];
        int[] rank2 = new int[total];
        int groups = 0;
        for (int i = 0; i < total; ) {
            int j = i;
            while (j + 1 < total && pooled[j + 1] == pooled[i]) {
                j++;
            }
            size[groups] = j - i + 1;
            rank2[groups] = (i + 1) + (j + 1);
            groups++;
            i = j + 1;
        }
        long observed = 0;
        for (double v : x) {
            observed += rank2[group(pooled, size, groups, v)];
        }
        int maxSum = 2 * total * n;
        // ways[k][s]: ways to pick k values from the groups seen so far with doubled rank sum s;
        // updated in place with k descending, so that each group is drawn from at most once.
        // reach: the largest doubled rank so far; k values never sum above k * reach.
        double[][] ways = new double[n + 1][maxSum + 1];
        ways[0][0] = 1;
        int reach = 0;
        for (int g = 0; g < groups; g++) {
            for (int k = n - 1; k >= 0; k--) {
                double[] from = ways[k];
                int top = Math.min(maxSum, k * reach);
                double choose = 1;
                for (int c = 1; c <= Math.min(size[g], n - k); c++) {
                    choose = choose * (size[g] - c + 1) / c;
                    int add = c * rank2[g];
                    double[] to = ways[k + c];
                    for (int s = 0; s <= top && s + add <= maxSum; s++) {
                        if (from[s] != 0) {
                            to[s + add] += from[s] * choose;
                        }
                    }
                }
            }
            reach = rank2[g];
        }
        double all = 0;
        double atLeast = 0;
        double atMost = 0;
        for (int s = 0; s <= maxSum; s++) {
            double w = ways[n][s];
            all += w;
            if (s >= observed) {
                atLeast += w;
            }
            if (s <= observed) {
                atMost += w;
            }
        }
        return new double[] {Math.min(1.0, atLeast / all), Math.min(1.0, atMost / all)};
    }

    private static int group(double[] sorted, int[] size, int groups, double v) {
        int start = 0;
        for (int g = 0; g < groups; g++) {
            if (sorted[start] == v) {
                return g;
            }
            start += size[g];
        }
        throw new IllegalStateException("value " + v + " not in the pooled sample");
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
