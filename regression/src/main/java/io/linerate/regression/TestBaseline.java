package io.linerate.regression;

import io.linerate.core.MeasurementResult;
import java.util.Objects;
import org.junit.jupiter.api.TestReporter;

/**
 * The baseline a test named with {@link LinerateBaseline}, given to the test as a parameter by
 * {@link LinerateBaselineExtension}. Gating publishes every metric through the test's report
 * entries ({@link MetricAssertions#publishingTo}). With the system property
 * {@value MetricAssertions#SAVE_PROPERTY} set to a directory, gating saves the run as the
 * baseline {@code <directory>/<resource>} instead, publishes the file's absolute path as the
 * report entry {@code linerate.baseline.saved} and prints it on stdout.
 */
public final class TestBaseline {
    private final String resource;
    private final String testSelector;
    private final TestReporter reporter;

    TestBaseline(String resource, String testSelector, TestReporter reporter) {
        this.resource = Objects.requireNonNull(resource, "resource");
        this.testSelector = Objects.requireNonNull(testSelector, "testSelector");
        this.reporter = Objects.requireNonNull(reporter, "reporter");
    }

    /** @return the class-path name of the baseline, as {@link LinerateBaseline#value()} gives it */
    public String resource() {
        return resource;
    }

    /**
     * Gates {@code assertion}'s metrics against the baseline, as
     * {@link MetricAssertions#hasNoRegressionAgainst(String)} does.
     *
     * @param assertion the metrics, with their tolerance and policies
     * @return the report, for further checks
     * @throws AssertionError listing every failing metric with base, current, change and tolerance
     * @throws IllegalArgumentException when the baseline is not on the class path: the message names
     *     {@value MetricAssertions#SAVE_PROPERTY} and the Maven command that makes it from this test
     *     ({@code mvn test -Dtest=Class#method -Dlinerate.baseline.save=src/test/resources});
     *     or when it is not a baseline of this version
     * @throws java.io.UncheckedIOException when saving, as {@link MetricAssertions#hasNoRegressionAgainst(String)}
     */
    public GateReport gate(MetricAssertions assertion) {
        return assertion.publishingTo(reporter).hasNoRegressionAgainst(resource, testSelector);
    }

    /**
     * Gates {@code result}'s metrics with their default policies, as {@link #gate(MetricAssertions)}
     * with {@link MetricAssertions#assertThat(MeasurementResult)}.
     *
     * @param result any pattern's result
     * @return the report, for further checks
     * @throws AssertionError when the result is invalid, or listing every failing metric
     */
    public GateReport gate(MeasurementResult result) {
        return gate(MetricAssertions.assertThat(result));
    }

    @Override
    public String toString() {
        return "baseline " + resource + " of " + testSelector;
    }
}
