package io.linerate.regression;

import io.linerate.regression.internal.UnitRange;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What was read from one or more inputs: samples, embedded policy lines (in order), KTAP tests
 * that reported {@code # SKIP}, errors that must become {@code error} verdicts, and warnings. Not
 * thread-safe while it is being filled.
 */
public final class MetricSet {
    private final List<Observation> observations = new ArrayList<>();
    private final List<Policy> embeddedPolicies = new ArrayList<>();
    private final List<Problem> errors = new ArrayList<>();
    private final List<Problem> warnings = new ArrayList<>();
    private final List<SkippedTest> skipped = new ArrayList<>();

    /**
     * Adds a sample, or, when its unit forbids its value (NaN, an infinity, or a negative rate,
     * size, count, duration or percentage), an error naming its source and line instead: a reader
     * that let such a value through must not get it into a gate or a baseline.
     *
     * @param o a sample to add
     */
    public void add(Observation o) {
        String refused = UnitRange.refusal(o.value(), o.unit());
        if (refused != null) {
            errors.add(Problem.of(o.source(), o.line(), o.key(), "metric " + o.key().display() + ": " + refused));
            return;
        }
        observations.add(o);
    }

    /** @param p a policy read from a {@code ktap-metric-policy-json} line */
    public void addPolicy(Policy p) {
        embeddedPolicies.add(p);
    }

    /** @param t a KTAP test that reported {@code # SKIP} */
    public void addSkipped(SkippedTest t) {
        skipped.add(t);
    }

    /** @param p a problem that makes its series (or its line) an {@code error} verdict */
    public void error(Problem p) {
        errors.add(p);
    }

    /** @param p a problem reported but not failing, such as an unknown key in an embedded policy */
    public void warn(Problem p) {
        warnings.add(p);
    }

    /** Adds everything of {@code other} to this set. */
    public void addAll(MetricSet other) {
        observations.addAll(other.observations);
        embeddedPolicies.addAll(other.embeddedPolicies);
        errors.addAll(other.errors);
        warnings.addAll(other.warnings);
        skipped.addAll(other.skipped);
    }

    /** @return samples in reading order */
    public List<Observation> observations() {
        return Collections.unmodifiableList(observations);
    }

    /** @return embedded policies in reading order */
    public List<Policy> embeddedPolicies() {
        return Collections.unmodifiableList(embeddedPolicies);
    }

    /** @return errors in reading order */
    public List<Problem> errors() {
        return Collections.unmodifiableList(errors);
    }

    /** @return skipped KTAP tests in reading order */
    public List<SkippedTest> skippedTests() {
        return Collections.unmodifiableList(skipped);
    }

    /** @return warnings in reading order */
    public List<Problem> warnings() {
        return Collections.unmodifiableList(warnings);
    }
}
