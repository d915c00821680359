package io.linerate.regression;

import io.linerate.core.Better;
import io.linerate.regression.internal.Bootstrap;
import io.linerate.regression.internal.Fmt;
import io.linerate.regression.internal.MannWhitney;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * The verdict of one series once both sides' data points are known: the policy's method
 * ({@code threshold}, {@code mann_whitney}, {@code bootstrap}, or {@code auto}, which picks between
 * the first two by the runs at hand) applied to the baseline's and the current data, as
 * docs/metrics.md section 5 describes.
 */
final class Comparison {
    private static final double SLACK = 1e-9;

    private Comparison() {}

    /**
     * @param b the baseline's compared statistic
     * @param c the current compared statistic
     * @param change {@code (c - b) / |b|}, or null
     * @param bs the baseline's data points
     * @param cur the current data points
     */
    static Verdict decide(SeriesKey key, String unit, Policy p, double b, double c, Double change, double[] bs, double[] cur) {
        boolean worse = beyond(p, b, c, true);
        boolean better = beyond(p, b, c, false);
        Policy.Method method = p.method();
        if (method == Policy.Method.AUTO) {
            int mw = MannWhitney.minRunsFor(p.alpha());
            method = bs.length >= mw && cur.length >= mw ? Policy.Method.MANN_WHITNEY : Policy.Method.THRESHOLD;
            if (method == Policy.Method.MANN_WHITNEY && !worse && !better) {
                return verdict(key, Verdict.Kind.PASS, unit, b, c, change, p, method, null, bs.length, cur.length,
                        "within the tolerance");
            }
        }
        switch (method) {
            case THRESHOLD:
                if (worse) {
                    return regression(key, unit, b, c, change, p, method, null, bs.length, cur.length, "");
                }
                return verdict(key, better ? Verdict.Kind.IMPROVEMENT : Verdict.Kind.PASS, unit, b, c, change, p, method,
                        null, bs.length, cur.length, better ? "better beyond the tolerance" : "within the tolerance");
            case MANN_WHITNEY: {
                boolean higher = p.better() == Better.HIGHER;
                double[] tails = higher ? MannWhitney.tails(bs, cur) : MannWhitney.tails(cur, bs);
                double pWorse = tails[0];
                double pBetter = tails[1];
                String ps = String.format(Locale.ROOT, "p=%.4g, alpha %s", pWorse, Fmt.num(p.alpha()));
                if (worse && pWorse < p.alpha()) {
                    return regression(key, unit, b, c, change, p, method, pWorse, bs.length, cur.length, ps);
                }
                if (better && pBetter < p.alpha()) {
                    return verdict(key, Verdict.Kind.IMPROVEMENT, unit, b, c, change, p, method, pBetter, bs.length,
                            cur.length, String.format(Locale.ROOT, "significantly better (p=%.4g)", pBetter));
                }
                String why;
                if (worse) {
                    why = "worse beyond the tolerance but not significantly (" + ps + ")";
                } else if (better) {
                    why = String.format(Locale.ROOT, "better beyond the tolerance but not significantly (p=%.4g, alpha %s)",
                            pBetter, Fmt.num(p.alpha()));
                } else {
                    why = "no significant worsening beyond the tolerance (" + ps + ")";
                }
                // the p-value reported is the one the reason names: of getting better when the change is
                // a betterment beyond the tolerance, of getting worse otherwise
                return verdict(key, Verdict.Kind.UNCHANGED, unit, b, c, change, p, method, better && !worse ? pBetter : pWorse,
                        bs.length, cur.length, why);
            }
            case BOOTSTRAP: {
                OptionalDouble[] ci = Bootstrap.ratioInterval(bs, cur, p.compare(), p.alpha());
                if (ci == null) {
                    return error(key, unit, p, "bootstrap impossible: a resampled baseline statistic is 0");
                }
                double lo = ci[0].getAsDouble();
                double hi = ci[1].getAsDouble();
                String iv = "ratio interval [" + Fmt.num(lo) + ", " + Fmt.num(hi) + "] at alpha " + Fmt.num(p.alpha());
                double tol = p.relativeTolerance();
                boolean absOk = Math.abs(c - b) > p.absoluteTolerance();
                boolean bWorse = absOk && (p.better() == Better.HIGHER ? hi < 1 - tol : lo > 1 + tol);
                boolean bBetter = absOk && (p.better() == Better.HIGHER ? lo > 1 + tol : hi < 1 - tol);
                if (bWorse) {
                    return regression(key, unit, b, c, change, p, method, null, bs.length, cur.length, iv);
                }
                return verdict(key, bBetter ? Verdict.Kind.IMPROVEMENT : Verdict.Kind.UNCHANGED, unit, b, c, change, p,
                        method, null, bs.length, cur.length, iv);
            }
            default:
                throw new IllegalStateException("unknown method " + p.method());
        }
    }

    /** The reason of a verdict whose policy has no regression rule. */
    static final String REPORTED_ONLY = "reported only: the policy has no regression rule (advisory), so no change fails";

    /**
     * The verdict of a series whose policy only reports ({@link Policy#reportOnly()}): {@code pass}
     * with both sides' statistic and the change, never failing; {@code inconclusive} as any other
     * when the baseline's environment differs.
     */
    static Verdict reported(SeriesKey key, String unit, Policy p, double b, double c, Double change, int nb, int nc,
                            List<String> envDiff) {
        Verdict.Kind kind = envDiff.isEmpty() ? Verdict.Kind.PASS : Verdict.Kind.INCONCLUSIVE;
        String reason = envDiff.isEmpty() ? REPORTED_ONLY : "environment differs: " + String.join("; ", envDiff);
        return Verdict.builder(key, kind, unit).policy(p).baseline(b).current(c).change(change).baselineRuns(nb)
                .currentRuns(nc).reason(reason).build();
    }

    static Verdict error(SeriesKey key, String unit, Policy p, String reason) {
        return Verdict.builder(key, Verdict.Kind.ERROR, unit).policy(p).failing(true).reason(reason).build();
    }

    static Verdict regression(SeriesKey key, String unit, double b, double c, Double change, Policy p,
                                      Policy.Method method, Double pValue, int nb, int nc, String detail) {
        return verdict(key, p.advisory() ? Verdict.Kind.ADVISORY_REGRESSION : Verdict.Kind.REGRESSION, unit, b, c,
                change, p, method, pValue, nb, nc, "worse beyond the tolerance" + (detail.isEmpty() ? "" : " (" + detail + ")")
                        + (p.advisory() ? "; advisory" : ""));
    }

    static Verdict verdict(SeriesKey key, Verdict.Kind kind, String unit, double b, double c, Double change,
                                   Policy p, Policy.Method method, Double pValue, int nb, int nc, String reason) {
        return Verdict.builder(key, kind, unit).policy(p).method(method.label()).baseline(b).current(c).change(change)
                .pValue(pValue).baselineRuns(nb).currentRuns(nc)
                .failing(kind == Verdict.Kind.REGRESSION || kind == Verdict.Kind.ERROR).reason(reason).build();
    }

    /** @return {@code (c - b) / |b|}, or null when {@code b} is 0 or the quotient is not finite */
    static Double relativeChange(double b, double c) {
        double q = (c - b) / Math.abs(b);
        return b != 0 && Double.isFinite(q) ? q : null;
    }

    /** @return whether {@code c} is beyond the tolerance from {@code b}: worse when {@code worse}, else better */
    static boolean beyond(Policy p, double b, double c, boolean worse) {
        double limit = p.relativeTolerance() * Math.abs(b) + SLACK * Math.abs(b);
        double delta = c - b;
        boolean higher = p.better() == Better.HIGHER;
        double signed = (higher == worse) ? -delta : delta;
        return signed > limit && Math.abs(delta) > p.absoluteTolerance();
    }
}
