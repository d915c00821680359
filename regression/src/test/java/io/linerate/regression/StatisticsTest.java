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
    void bimodalRunsWithTiesAreCountedExactlyNotApproximated() {
        // base {9000, 5000, 9000, 9000, 5000}, current {5000, 9000, 5000, 5000, 9000}: the pooled ten
        // values are five 5000s (ranks 1..5, mid-rank 3) and five 9000s (ranks 6..10, mid-rank 8).
        // Under the null hypothesis each of the C(10,5) = 252 choices of the 5 base positions is
        // equally likely; with k of the 9000s in the base, its rank sum is 8k + 3(5 - k) = 15 + 5k,
        // and C(5,k) C(5,5-k) choices have k nines: k = 0..5 -> 1, 25, 100, 100, 25, 1.
        // Base has k = 3: P(rank sum >= 30) = P(k >= 3) = (100 + 25 + 1) / 252 = 126/252 = 0.5.
        // Current has k = 2: P(k >= 2) = (100 + 100 + 25 + 1) / 252 = 226/252.
        // (A normal approximation with tie correction would give 0.3156 for the first.)
        double[] base = {9000, 5000, 9000, 9000, 5000};
        double[] cur = {5000, 9000, 5000, 5000, 9000};
        assertThat(MannWhitney.pGreater(base, cur)).isCloseTo(126.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(cur, base)).isCloseTo(226.0 / 252, within(1e-12));
        // both tails from one count: P(base rank sum >= 30) and P(<= 30), the latter = P(k <= 3)
        assertThat(MannWhitney.tails(base, cur)).containsExactly(new double[] {126.0 / 252, 226.0 / 252}, within(1e-12));
    }

    @Test
    void tiesWithinOneSideDoNotBlurAClearSeparation() {
        // base {100, 101, 99, 100, 102} all above current {80, 81, 79, 80, 82}: of the 252 choices
        // of 5 positions among the pooled 10, only the top five give the base's rank sum
        // (6 + 7.5 + 7.5 + 9 + 10 = 40; any other choice swaps in a rank <= 5 for one >= 6), so
        // p = 1/252 = 0.003968 exactly, while the normal approximation would say 0.005834.
        assertThat(MannWhitney.pGreater(new double[] {100, 101, 99, 100, 102}, new double[] {80, 81, 79, 80, 82}))
                .isCloseTo(1.0 / 252, within(1e-12));
    }

    @Test
    void tiesAcrossBothSamplesMatchAnEnumerationOfAllAssignments() {
        // pooled 0 0 1 1 2 2 2 2 3 4, mid-ranks 1.5 1.5 3.5 3.5 6.5 6.5 6.5 6.5 9 10; x = {1, 2, 2, 3, 4}
        // has rank sum 35.5; 17 of the 252 choices of 5 positions reach 35.5 or more (counted by
        // enumerated() below, which compares values pairwise and never ranks)
        double[] x = {1, 2, 2, 3, 4};
        double[] y = {2, 2, 1, 0, 0};
        assertThat(enumerated(x, y)).isCloseTo(17.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(x, y)).isCloseTo(17.0 / 252, within(1e-12));
        assertThat(MannWhitney.pGreater(new double[] {5, 5, 5}, new double[] {5, 5, 5})).isEqualTo(1.0);
    }

    @Test
    void largeSamplesUseTheNormalApproximationWithContinuityCorrection() {
        // x = 1, 3, ..., 119 and y = 2, 4, ..., 120 (60 each, 120 > EXACT_LIMIT): the x value 2i - 1
        // is above i - 1 y values, so U = 0 + 1 + ... + 59 = 1770; mean nm/2 = 1800,
        // var = nm (N + 1) / 12 = 3600 * 121 / 12 = 36300; z = (1770 - 0.5 - 1800) / sqrt(36300)
        // = -0.16008; P(U >= 1770) = 1 - Phi(-0.16008) = 0.56359
        double[] x = new double[60];
        double[] y = new double[60];
        for (int i = 0; i < 60; i++) {
            x[i] = 2 * i + 1;
            y[i] = 2 * i + 2;
        }
        assertThat(MannWhitney.pGreater(x, y)).isCloseTo(0.56359, within(5e-6));
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
     * values belong to x; 2U counts 2 for each pair with x above y and 1 for each tie.
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
                    u += 2;
                } else if (p == q) {
                    u++;
                }
            }
        }
        return u;
    }
}
