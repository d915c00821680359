package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.linerate.regression.internal.MannWhitney;
import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

class StatisticsTest {
    private static final double[] TEN = {7, 1, 10, 4, 2, 9, 3, 8, 6, 5};

    @Test
    void nearestRankPercentiles() {
        // sorted 1..10; rank = ceil(p/100 * 10)
        assertThat(Compare.parse("p50").of(TEN)).isEqualTo(5);
        assertThat(Compare.parse("p51").of(TEN)).isEqualTo(6);
        assertThat(Compare.parse("p10").of(TEN)).isEqualTo(1);
        assertThat(Compare.parse("p90").of(TEN)).isEqualTo(9);
        assertThat(Compare.parse("p99.9").of(TEN)).isEqualTo(10);
        assertThat(Compare.parse("p100").of(TEN)).isEqualTo(10);
        assertThat(Compare.parse("p0.1").of(TEN)).isEqualTo(1);
        assertThat(Compare.parse("mean").of(TEN)).isEqualTo(5.5);
        assertThat(Compare.parse("min").of(TEN)).isEqualTo(1);
        assertThat(Compare.parse("max").of(TEN)).isEqualTo(10);
        // 10 % of 30 is exactly rank 3 (a binary 0.1 * 30 would round up to rank 4)
        assertThat(Compare.nearestRank(new BigDecimal("10"), 30)).isEqualTo(3);
        assertThat(Compare.nearestRank(new BigDecimal("50"), 3)).isEqualTo(2);
    }

    @Test
    void percentilesOutsideTheRangeAreRefused() {
        assertThatThrownBy(() -> Compare.parse("p0")).hasMessageContaining("compare 'p0' is not allowed")
                .hasMessageContaining("0 < NN <= 100");
        assertThatThrownBy(() -> Compare.parse("p101")).hasMessageContaining("'p101'");
        assertThatThrownBy(() -> Compare.parse("median")).hasMessageContaining("'median'");
    }

    @Test
    void exactMannWhitneyPValuesMatchThePublishedTableForFivePerSide() {
        // Mann-Whitney table, n1 = n2 = 5, one-sided: P(U <= 0) = 1/252 = 0.0040,
        // P(U <= 1) = 2/252 = 0.0079, P(U <= 2) = 4/252 = 0.0159, P(U <= 3) = 7/252 = 0.0278,
        // P(U <= 4) = 12/252 = 0.0476 (U counts pairs in which the y value is above the x value)
        double[] low = {1, 2, 3, 4, 5};
        assertThat(MannWhitney.pGreater(new double[] {6, 7, 8, 9, 10}, low)).isCloseTo(1.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {5.5, 7, 8, 9, 10}, new double[] {1, 2, 3, 4, 6}))
                .isCloseTo(2.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {4.5, 5.5, 8, 9, 10}, new double[] {1, 2, 3, 6, 7}))
                .isCloseTo(enumerated(new double[] {4.5, 5.5, 8, 9, 10}, new double[] {1, 2, 3, 6, 7}), within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {5.5, 6.5, 8, 9, 10}, new double[] {1, 2, 3, 4, 7}))
                .isCloseTo(4.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {4.5, 6.5, 8, 9, 10}, new double[] {1, 2, 3, 5, 7}))
                .isCloseTo(7.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {3.5, 6.5, 8, 9, 10}, new double[] {1, 2, 4, 5, 7}))
                .isCloseTo(12.0 / 252, within(1e-12));
        // the other direction is the complement of the probability of a smaller U
        assertThat(MannWhitney.pGreater(low, new double[] {6, 7, 8, 9, 10})).isCloseTo(1.0, within(1e-12));
    }

    @Test
    void exactPValuesMatchAnIndependentEnumerationOfAllAssignments() {
        double[] x = {10.2, 11.5, 9.8, 12.1};
        double[] y = {9.1, 10.0, 8.7, 9.9, 10.5, 8.2};
        assertThat(MannWhitney.pGreater(x, y)).isCloseTo(enumerated(x, y), within(1e-12));
        assertThat(MannWhitney.pGreater(y, x)).isCloseTo(enumerated(y, x), within(1e-12));
    }

    @Test
    void tiesUseTheNormalApproximationWithTieAndContinuityCorrection() {
        // U = 20.5 (ties count 1/2), mean nm/2 = 12.5; ties 0 (2), 1 (2), 2 (4): sum(t^3 - t) = 72,
        // var = nm/12 * (N + 1 - 72 / (N (N - 1))) = 25/12 * 10.2 = 21.25;
        // z = (20.5 - 12.5 - 0.5) / sqrt(21.25) = 1.6270, 1 - Phi(1.6270) = 0.05187
        assertThat(MannWhitney.pGreater(new double[] {1, 2, 2, 3, 4}, new double[] {2, 2, 1, 0, 0}))
                .isCloseTo(0.05187, within(5e-5));
        assertThat(MannWhitney.pGreater(new double[] {5, 5, 5}, new double[] {5, 5, 5})).isEqualTo(1.0);
    }

    @Test
    void smallestReachablePValueAndMinRuns() {
        assertThat(MannWhitney.smallestPValue(3, 3)).isCloseTo(1.0 / 20, within(1e-15));
        assertThat(MannWhitney.smallestPValue(4, 4)).isCloseTo(1.0 / 70, within(1e-15));
        assertThat(MannWhitney.smallestPValue(5, 5)).isCloseTo(1.0 / 252, within(1e-15));
        assertThat(MannWhitney.minRunsFor(0.01)).isEqualTo(5);
        // a regression needs p < alpha: 1/C(6,3) = 0.05 does not reach alpha 0.05, 1/70 does
        assertThat(MannWhitney.minRunsFor(0.05)).isEqualTo(4);
        assertThat(MannWhitney.minRunsFor(0.051)).isEqualTo(3);
    }

    /**
     * P(U' >= u) under the null hypothesis, by enumerating every way to pick which of the pooled
     * (distinct) values belong to x; U counts pairs with x above y.
     */
    private static double enumerated(double[] x, double[] y) {
        int n = x.length;
        int m = y.length;
        double[] pooled = new double[n + m];
        System.arraycopy(x, 0, pooled, 0, n);
        System.arraycopy(y, 0, pooled, n, m);
        long observed = u(x, y);
        long hits = 0;
        long total = 0;
        for (int mask = 0; mask < 1 << (n + m); mask++) {
            if (Integer.bitCount(mask) != n) {
                continue;
            }
            double[] a = new double[n];
            double[] b = new double[m];
            int ia = 0;
            int ib = 0;
            for (int i = 0; i < n + m; i++) {
                if ((mask & 1 << i) != 0) {
                    a[ia++] = pooled[i];
                } else {
                    b[ib++] = pooled[i];
                }
            }
            total++;
            if (u(a, b) >= observed) {
                hits++;
            }
        }
        return (double) hits / total;
    }

    private static long u(double[] a, double[] b) {
        long u = 0;
        for (double p : a) {
            for (double q : b) {
                if (p > q) {
                    u++;
                }
            }
        }
        return u;
    }
}
