package io.linerate.regression;

import io.linerate.core.Better;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A metric policy (docs/metrics.md section 3): how a metric's samples are summarized and compared.
 * A policy without a {@link Regression} rule only reports its metric (advisory): the gate gives
 * the compared statistic ({@link #compare()}, p50 of the data points) of both sides and the
 * change, and never judges it, so it never fails the gate. kperf writes such policies, as
 * {@code {"name":"tcp.retransmits","summarize":"max"}}.
 *
 * @param name metric name; a trailing {@code *} matches every name with that prefix
 * @param regression when the metric regresses; empty for a policy that only reports
 * @param summarize how one run's samples become data
 * @param absoluteTolerance the change must also exceed this, in the metric's unit; 0 when unset
 * @param method how base and current data are compared; {@link Method#AUTO} when a policy names none
 * @param alpha significance for the statistical methods, 0 &lt; alpha &lt; 1
 * @param minRuns data points needed on each side, at least 1
 * @param omitFirstSeconds seconds dropped from the start of each run
 * @param omitLastSeconds seconds dropped from the end of each run
 * @param onMissing what a baselined metric absent now becomes
 * @param onSkip what a baselined metric of a test that reports {@code # SKIP} now becomes
 * @param advisory report, never fail; always true for a policy without a regression rule
 * @param source where the policy came from
 */
public record Policy(String name, Optional<Regression> regression, Summarize summarize, double absoluteTolerance,
                     Method method, double alpha, int minRuns, double omitFirstSeconds, double omitLastSeconds,
                     OnMissing onMissing, OnSkip onSkip, boolean advisory, Source source) {

    /** The statistic a policy without a regression rule reports: the median of the data points. */
    public static final Compare REPORTED = Compare.parse("p50");

    /**
     * When a metric regresses: the policy's {@code regression} object.
     *
     * @param better which direction is an improvement
     * @param compare the statistic compared
     * @param relativeTolerance allowed worsening as a fraction (0.05 = 5 %), 0 to 1 in a policy file:
     *     higher-better regresses when {@code cur < base * (1 - tol)}, lower-better when
     *     {@code cur > base * (1 + tol)}
     */
    public record Regression(Better better, Compare compare, double relativeTolerance) {
        /** @throws NullPointerException for a missing direction or statistic */
        public Regression {
            Objects.requireNonNull(better, "better");
            Objects.requireNonNull(compare, "compare");
        }
    }

    /** @throws IllegalArgumentException for a policy without a regression rule that is not advisory */
    public Policy {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(regression, "regression");
        if (regression.isEmpty() && !advisory) {
            throw new IllegalArgumentException("policy " + name + " has no regression rule, so it only reports; "
                    + "allowed: advisory true");
        }
    }

    /** @return whether the policy only reports its metric: it has no regression rule */
    public boolean reportOnly() {
        return regression.isEmpty();
    }

    /**
     * @return the regression rule's direction
     * @throws IllegalStateException for a policy that only reports
     */
    public Better better() {
        return rule().better();
    }

    /** @return the statistic compared: the regression rule's, or {@link #REPORTED} for a policy that only reports */
    public Compare compare() {
        return regression.map(Regression::compare).orElse(REPORTED);
    }

    /**
     * @return the regression rule's relative tolerance, a fraction
     * @throws IllegalStateException for a policy that only reports
     */
    public double relativeTolerance() {
        return rule().relativeTolerance();
    }

    private Regression rule() {
        return regression.orElseThrow(() -> new IllegalStateException("policy " + name + " only reports: it has no "
                + "regression rule"));
    }

    /** Default significance of the statistical methods. */
    public static final double DEFAULT_ALPHA = 0.01;

    /** How one run's samples become data. */
    public enum Summarize {
        /** Keep every sample. */
        DISTRIBUTION,
        /** The largest sample of the run. */
        MAX,
        /** The smallest sample of the run. */
        MIN,
        /** The arithmetic mean of the run. */
        MEAN,
        /** The last sample of the run, in reading order. */
        LAST,
        /** The sum of the run's samples. */
        SUM;

        /** @return the lower-case name used in policies */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How base and current data are compared. */
    public enum Method {
        /**
         * The default: {@link #THRESHOLD} while either side has fewer data points than the exact
         * Mann-Whitney test needs to reach {@code alpha} (5 at the default alpha 0.01); from there on
         * the threshold and the Mann-Whitney test together, so that a change beyond the tolerance
         * that is not significant reads {@code unchanged}.
         */
        AUTO,
        /** The compared statistic against the tolerance. */
        THRESHOLD,
        /** Exact one-sided Mann-Whitney U test, plus the tolerance as the effect that matters. */
        MANN_WHITNEY,
        /** Fixed-seed percentile bootstrap interval of the ratio current / base. */
        BOOTSTRAP;

        /** @return the lower-case name used in policies */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a baselined metric that is absent now becomes. */
    public enum OnMissing {
        /** A failing {@code missing} verdict. */
        FAIL,
        /** A skipped {@code missing} verdict. */
        SKIP;

        /** @return the lower-case name used in policies */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** What a baselined metric of a test that reports {@code # SKIP} now becomes. */
    public enum OnSkip {
        /** A {@code skip} verdict carrying the test's reason, not failing. */
        SKIP,
        /** A failing {@code skip} verdict. */
        FAIL;

        /** @return the lower-case name used in policies */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Where a policy came from; a file beats embedded lines in the current input, which beat the
     * policies stored in the baseline, which beat defaults.
     */
    public enum Source {
        /** A reviewed policy file. */
        FILE,
        /** A {@code ktap-metric-policy-json} line in an input. */
        EMBEDDED,
        /** Stored in the baseline with the series it judged. */
        BASELINE,
        /** Built in, chosen by the metric's name. */
        DEFAULT;

        /** @return the lower-case name used in reports */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** @return whether this policy applies to metric {@code metricName} */
    public boolean matches(String metricName) {
        if (name.endsWith("*")) {
            return metricName.startsWith(name.substring(0, name.length() - 1));
        }
        return name.equals(metricName);
    }

    /** @return this policy as read from another source */
    public Policy withSource(Source s) {
        return new Policy(name, regression, summarize, absoluteTolerance, method, alpha, minRuns, omitFirstSeconds,
                omitLastSeconds, onMissing, onSkip, advisory, s);
    }

    /** @return this policy with another relative tolerance (from {@code --tolerance}); one that only reports is kept */
    public Policy withRelativeTolerance(double tolerance) {
        return new Policy(name, regression.map(r -> new Regression(r.better(), r.compare(), tolerance)), summarize,
                absoluteTolerance, method, alpha, minRuns, omitFirstSeconds, omitLastSeconds, onMissing, onSkip, advisory,
                source);
    }
}
