package io.linerate.regression;

import java.util.Locale;

/**
 * The judgement of one series (docs/metrics.md section 5). Build one with {@link #builder}.
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
         * it, or reported by a policy without a regression rule, which never judges.
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

    /**
     * @param key the series
     * @param kind the verdict
     * @param unit the series' unit; empty when unitless or unknown
     * @return a builder: no values, no policy ({@code policySource} {@code none}), 0 runs, not
     *     failing, no reason
     */
    public static Builder builder(SeriesKey key, Kind kind, String unit) {
        return new Builder(key, kind, unit);
    }

    /** Builds a {@link Verdict} by named field, so that none of its many numbers can be swapped. */
    public static final class Builder {
        private final SeriesKey key;
        private final Kind kind;
        private final String unit;
        private Double baseline;
        private Double current;
        private Double change;
        private Double tolerance;
        private Double absoluteTolerance;
        private String compare = "";
        private String method = "";
        private Double pValue;
        private int baselineRuns;
        private int currentRuns;
        private String policySource = "none";
        private boolean failing;
        private String reason = "";

        private Builder(SeriesKey key, Kind kind, String unit) {
            this.key = key;
            this.kind = kind;
            this.unit = unit;
        }

        /**
         * Takes the tolerances, the compared statistic, the method and the source from a policy;
         * from a policy that only reports, its statistic and source alone (no tolerance, no method).
         *
         * @param p the policy the series was judged by; null for none
         * @return this
         */
        public Builder policy(Policy p) {
            if (p != null) {
                compare = p.compare().label();
                policySource = p.source().label();
                if (!p.reportOnly()) {
                    tolerance = p.relativeTolerance();
                    absoluteTolerance = p.absoluteTolerance();
                    method = p.method().label();
                }
            }
            return this;
        }

        /** @param label the method applied, replacing the policy's own @return this */
        public Builder method(String label) {
            method = label;
            return this;
        }

        /** @param v the baseline's compared statistic @return this */
        public Builder baseline(Double v) {
            baseline = v;
            return this;
        }

        /** @param v the current data's compared statistic @return this */
        public Builder current(Double v) {
            current = v;
            return this;
        }

        /** @param v the relative change @return this */
        public Builder change(Double v) {
            change = v;
            return this;
        }

        /** @param v the Mann-Whitney p-value @return this */
        public Builder pValue(Double v) {
            pValue = v;
            return this;
        }

        /** @param n data points on the baseline side @return this */
        public Builder baselineRuns(int n) {
            baselineRuns = n;
            return this;
        }

        /** @param n data points on the current side @return this */
        public Builder currentRuns(int n) {
            currentRuns = n;
            return this;
        }

        /** @param v where the policy came from, when no policy is given @return this */
        public Builder policySource(String v) {
            policySource = v;
            return this;
        }

        /** @param v whether the verdict fails the gate @return this */
        public Builder failing(boolean v) {
            failing = v;
            return this;
        }

        /** @param v why, for people @return this */
        public Builder reason(String v) {
            reason = v;
            return this;
        }

        /** @return the verdict */
        public Verdict build() {
            return new Verdict(key, kind, unit, baseline, current, change, tolerance, absoluteTolerance, compare, method,
                    pValue, baselineRuns, currentRuns, policySource, failing, reason);
        }
    }
}
