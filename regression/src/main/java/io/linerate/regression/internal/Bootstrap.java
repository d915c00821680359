package io.linerate.regression.internal;

import io.linerate.regression.Compare;
import java.util.Arrays;
import java.util.OptionalDouble;
import java.util.Random;

/**
 * Percentile bootstrap interval of the ratio {@code stat(current) / stat(base)} (Efron and
 * Tibshirani, An Introduction to the Bootstrap, 1993, chapter 13): each of {@link #RESAMPLES}
 * rounds resamples both sides with replacement, independently, using {@link Random} seeded with
 * {@link #SEED} (its algorithm is specified by the JDK, so results repeat on every JVM). The
 * interval is the {@code alpha} and {@code 1 - alpha} empirical quantiles (nearest rank) of the
 * sorted ratios, i.e. two one-sided {@code 1 - alpha} bounds.
 */
public final class Bootstrap {
    /** Number of resampling rounds. */
    public static final int RESAMPLES = 2000;
    /** The fixed seed. */
    public static final long SEED = 0x6c696e6572617465L;

    private Bootstrap() {}

    /**
     * @return {@code [lower, upper]}, or null when a resampled baseline statistic is 0
     */
    public static OptionalDouble[] ratioInterval(double[] base, double[] current, Compare stat, double alpha) {
        Random rnd = new Random(SEED);
        double[] ratios = new double[RESAMPLES];
        double[] b = new double[base.length];
        double[] c = new double[current.length];
        for (int i = 0; i < RESAMPLES; i++) {
            for (int j = 0; j < b.length; j++) {
                b[j] = base[rnd.nextInt(base.length)];
            }
            for (int j = 0; j < c.length; j++) {
                c[j] = current[rnd.nextInt(current.length)];
            }
            double sb = stat.of(b);
            if (sb == 0) {
                return null;
            }
            ratios[i] = stat.of(c) / sb;
        }
        Arrays.sort(ratios);
        int lo = Math.max(1, (int) Math.ceil(alpha * RESAMPLES));
        int hi = Math.min(RESAMPLES, (int) Math.ceil((1 - alpha) * RESAMPLES));
        return new OptionalDouble[] {OptionalDouble.of(ratios[lo - 1]), OptionalDouble.of(ratios[hi - 1])};
    }
}
