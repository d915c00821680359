package io.linerate.regression;

import java.util.Locale;

/**
 * The judgement of one series (docs/metrics.md section 5).
 *
 * @param key the series
 * @param kind the verdict
 * @param unit the series' unit; empty when unitless or unknown
 * @param baseline the compared statistic of the baseline data; null without one
 * @param current the compared statistic of the current data; null without one
 * @param change {@code (current - baseline) / |baseline|}; null when either is missing, the baseline is 0
 *     or the quotient is not finite
 * @param tolerance relative tolerance as a fraction; null without a policy
 * @param absoluteTolerance absolute tolerance in {@code unit}; null without a policy
 * @param compare the compared statistic ({@code p50}, {@code mean}, ...); empty without a policy
 * @param method the comparison method applied ({@code threshold}, {@code mann_whitney},
 *     {@code bootstrap}); the policy's own ({@code auto} by default) when nothing was compared;
 *     empty without a policy
 * @param pValue p-value of the Mann-Whitney test; null for other methods
 * @param baselineRuns data points on the baseline side after summarizing
 * @param currentRuns data points on the current side after summarizing
 * @param policySource {@code file}, {@code embedded}, {@code baseline}, {@code default}, or {@code none}
 * @param failing whether this verdict fails the gate (exit 1)
 * @param reason why, for people
 */
public record Verdict(SeriesKey key, Kind kind, String unit, Double baseline, Double current, Double change,
                      Double tolerance, Double absoluteTolerance, String compare, String method, Double pValue,
                      int baselineRuns, int currentRuns, String policySource, boolean failing, String reason) {

    /** The verdict kinds. */
    public enum Kind {
        /**
         * Within the tolerance (threshold or {@code auto}), or measured without a baseline or not in
         * it.
         */
        PASS,
        /** Better than the baseline beyond the tolerance. */
        IMPROVEMENT,
        /** No significant change (statistical methods). */
        UNCHANGED,
        /** Worse than the baseline beyond the tolerance; fails. */
        REGRESSION,
        /** Cannot be judged: too few runs, or a different environment. */
        INCONCLUSIVE,
        /** In the baseline but absent now; fails unless the policy says {@code on_missing: skip}. */
        MISSING,
        /**
         * In the baseline, and its KTAP test reported {@code # SKIP} now; carries the test's reason and
         * fails only when the policy says {@code on_skip: fail}.
         */
        SKIP,
        /** Bad input; fails. */
        ERROR,
        /** A regression of an advisory metric; reported, never fails. */
        ADVISORY_REGRESSION;

        /** @return the name used in reports, such as {@code advisory-regression} */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }
}
