package io.linerate.regression;

import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.TransferResult;
import io.linerate.core.Transports;
import io.linerate.regression.internal.Fmt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.TestReporter;

/**
 * A small AssertJ-style API to gate metrics in a JUnit 5 test:
 * <pre>{@code
 * @Test
 * void loopbackDidNotRegress(TestReporter reporter) {
 *     MetricAssertions.assertThatTransfer(result).publishingTo(reporter)
 *             .withTolerancePercent(5).hasNoRegressionAgainst("baselines/loopback.json");
 * }
 * }</pre>
 * Beside the baseline, a result's figures can be held to fixed bounds, which need no baseline
 * and hold on any machine when set low enough:
 * <pre>{@code
 * MetricAssertions.assertThat(result).throughputAtLeast(1_000_000).lossAtMost(1);
 * }</pre>
 * Each absolute assertion reads one figure by its key (docs/metrics.md, "One key per quantity"),
 * checks every series of it the result has (each direction of a bidirectional or far-end run,
 * each message size of a ping-pong) and fails naming each series beyond the bound, such as
 * {@code tcp4/tcp4_mbps{direction=forward}@local = 812.4 Mbit/s, expected at least 900 Mbit/s};
 * a result without the figure fails naming the series it has.
 *
 * <p>Every metric is published through {@link TestReporter#publishEntry(String, String)} as
 * {@code linerate.<name>@<host>} = {@code <value> <unit>}. Surefire's XML report does not carry
 * report entries; JUnit's Open Test Reporting ({@code junit-platform-reporting} on the test class
 * path and {@code junit.platform.reporting.open.xml.enabled=true}) writes them to its own XML file.
 *
 * <p>The first baseline comes from a run: with the system property {@value #SAVE_PROPERTY} set to a
 * directory (such as {@code -Dlinerate.baseline.save=src/test/resources} on the Maven command line),
 * {@link #hasNoRegressionAgainst(String)} writes the run's metrics as the baseline
 * {@code <directory>/<resource>} instead of comparing, and refuses to replace an existing one unless
 * {@value #OVERWRITE_PROPERTY} is {@code true}; {@link #saveBaseline(Path, boolean)} does the same
 * from code. Each metric's own direction ({@link Metric#better()}) gives its policy, the default one that
 * linerate's ktap sink writes beside it ({@code MetricJson.defaultPolicy}: p50, 5 %; a loss in %
 * within 1 percentage point; jitter advisory), which a policy file given with
 * {@link #withPolicies(Policies)} beats.
 * The baseline is a class-path resource in the format of {@link Baseline}; environment differences
 * are allowed (tests run on many machines) unless {@link #requiringSameEnvironment(Environment)}.
 * {@link LinerateBaseline} names a test's baseline once, on the test method or class, and gates
 * through a {@link TestBaseline} parameter. linerate-regression brings {@code junit-jupiter-api}.
 */
public final class MetricAssertions {
    /** System property: a directory to write baselines to instead of comparing with them. */
    public static final String SAVE_PROPERTY = "linerate.baseline.save";
    /** System property: {@code true} lets {@value #SAVE_PROPERTY} replace an existing baseline. */
    public static final String OVERWRITE_PROPERTY = "linerate.baseline.overwrite";
    /** Transport recorded in a saved baseline when no environment was given. */
    static final String UNSPECIFIED_TRANSPORT = "unspecified";

    private final List<Metric> metrics;
    private final String test;
    private final String transport;
    private TestReporter reporter;
    private Double tolerance;
    private Environment environment;
    private Policies policies = Policies.none();

    private MetricAssertions(List<Metric> metrics, String test, String transport) {
        this.metrics = List.copyOf(metrics);
        this.test = test;
        this.transport = transport;
    }

    /**
     * @param metrics the metrics to gate, at least one
     * @return the assertion
     * @throws IllegalArgumentException when {@code metrics} is empty
     */
    public static MetricAssertions assertThatMetrics(Collection<Metric> metrics) {
        if (metrics.isEmpty()) {
            throw new IllegalArgumentException("no metrics to gate; allowed: at least one metric");
        }
        return new MetricAssertions(new ArrayList<>(metrics), "", UNSPECIFIED_TRANSPORT);
    }

    /**
     * Gates any pattern's result the same way: a stream's, a ping-pong's, a request/response run's
     * or a raw-frame run's. Its metrics are keyed under the test its spec names
     * ({@link io.linerate.core.MeasurementSpec#testName()}), as the command line's {@code --ktap} and
     * {@code --json} outputs key them, and a baseline saved from it records the transport
     * {@link Transports#forSpec} selects for that spec, as {@code linerate gate --transport} does:
     * so a baseline saved here gates a command-line run of the same transport, and the reverse.
     *
     * @param result any result; its metrics are {@link MeasurementResult#metrics()}
     * @return the assertion
     * @throws AssertionError when the result is invalid, with its reasons: the metrics of a result
     *     that must not be used are not gated; or when it was interrupted ({@link MeasurementResult#interrupted()})
     * @throws IllegalArgumentException when the result has no metrics
     */
    public static MetricAssertions assertThat(MeasurementResult result) {
        Objects.requireNonNull(result, "result");
        if (result.interrupted()) {
            throw new AssertionError("the " + result.spec().pattern().label() + " result was interrupted before its "
                    + "bound, so its metrics are neither gated nor saved as a baseline: they cover less than the run "
                    + "asked for; run it to its end");
        }
        if (!result.valid()) {
            throw new AssertionError("the " + result.spec().pattern().label() + " result is invalid, so its metrics "
                    + "are not gated: " + String.join("; ", result.invalidReasons()));
        }
        if (result.metrics().isEmpty()) {
            throw new IllegalArgumentException("no metrics to gate; allowed: at least one metric");
        }
        return new MetricAssertions(result.metrics(), result.spec().testName(), transportOf(result));
    }

    private static String transportOf(MeasurementResult result) {
        try {
            return Transports.forSpec(result.spec()).name();
        } catch (RuntimeException e) {
            // no transport on the class path runs this spec: the result came from elsewhere
            return UNSPECIFIED_TRANSPORT;
        }
    }

    /**
     * @param result a transfer; its metrics are those of {@code TransferFormat.metrics} under its
     *     marker ({@code tcp4_mbps}, and for UDP {@code _jitter_ms} and {@code _lost_pct})
     * @return the assertion
     */
    public static MetricAssertions assertThatTransfer(TransferResult result) {
        return assertThat(result);
    }

    /**
     * @param r where every metric is published
     * @return this
     */
    public MetricAssertions publishingTo(TestReporter r) {
        this.reporter = Objects.requireNonNull(r, "reporter");
        return this;
    }

    /**
     * @param percent relative tolerance replacing the policies' own, 0 to 100
     * @return this
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public MetricAssertions withTolerancePercent(double percent) {
        if (!(percent >= 0 && percent <= 100)) {
            throw new IllegalArgumentException("tolerance " + percent + "% is not allowed; allowed: 0 to 100 percent");
        }
        this.tolerance = percent / 100;
        return this;
    }

    /**
     * @param p reviewed policies that beat the defaults
     * @return this
     */
    public MetricAssertions withPolicies(Policies p) {
        this.policies = Objects.requireNonNull(p, "policies");
        return this;
    }

    /**
     * @param env the environment this run is in; a baseline from another one is then inconclusive
     * @return this
     */
    public MetricAssertions requiringSameEnvironment(Environment env) {
        this.environment = Objects.requireNonNull(env, "environment");
        return this;
    }

    /**
     * Checks the receiver's goodput, {@code <marker>_mbps} in Mbit/s ({@link io.linerate.core.StreamMetrics#goodput}),
     * of every direction; of N parallel streams, their sum ({@code stream=sum}). For bare metrics,
     * every {@code *_mbps} but a sender's {@code *_sent_mbps}.
     *
     * @param bitsPerSecond the least goodput allowed, in bits/s (compared in Mbit/s: bits/s / 1e6)
     * @return this
     * @throws AssertionError naming each series below the bound, or the series the result has when it has no goodput
     * @throws IllegalArgumentException when {@code bitsPerSecond} is negative or not finite
     */
    public MetricAssertions throughputAtLeast(double bitsPerSecond) {
        bounds().throughputAtLeast(bitsPerSecond);
        return this;
    }

    /**
     * Checks the receiver's UDP loss, {@code <marker>_lost_pct} in %, of every series (each direction).
     *
     * @param percent the most loss allowed, in %, 0 to 100
     * @return this
     * @throws AssertionError naming each series above the bound, or the series the result has when it has no loss
     *     figure (a TCP result has none)
     * @throws IllegalArgumentException when {@code percent} is outside 0 to 100
     */
    public MetricAssertions lossAtMost(double percent) {
        bounds().lossAtMost(percent);
        return this;
    }

    /**
     * Checks the receiver's UDP jitter (RFC 3550), {@code <marker>_jitter_ms} in ms, of every series.
     *
     * @param bound the most jitter allowed, at least 0 (compared in ms)
     * @return this
     * @throws AssertionError naming each series above the bound, or the series the result has when it has no jitter
     * @throws IllegalArgumentException when {@code bound} is negative
     */
    public MetricAssertions jitterAtMost(Duration bound) {
        bounds().jitterAtMost(bound);
        return this;
    }

    /**
     * Checks a latency percentile, {@code latency_p<percentile>} in ns as ping-pong and
     * request/response results name it ({@code latency_p50}, {@code latency_p99}, {@code latency_p99.9}),
     * of every series: each message size of a ping-pong, the rr run's. A result holds the median
     * and the percentile its spec asked for.
     *
     * @param percentile the percentile, greater than 0 and at most 100
     * @param bound the most latency allowed, at least 0 (compared in ns)
     * @return this
     * @throws AssertionError naming each series above the bound, or the series the result has when it has no such percentile
     * @throws IllegalArgumentException when {@code percentile} or {@code bound} is out of range
     */
    public MetricAssertions latencyPercentileAtMost(double percentile, Duration bound) {
        bounds().latencyPercentileAtMost(percentile, bound);
        return this;
    }

    private AbsoluteBounds bounds() {
        return new AbsoluteBounds(metrics, test, this::publish);
    }

    /**
     * Gates the metrics against the class-path resource {@code baselineResource}; or, when the
     * system property {@value #SAVE_PROPERTY} names a directory, saves them as the baseline
     * {@code <directory>/<baselineResource>} (missing directories are created; the resource name
     * must stay under the directory), publishes the file's absolute path as the report entry
     * {@code linerate.baseline.saved}, prints {@code linerate: saved baseline <path> (<n> series)}
     * on stdout, and gates them without a baseline.
     *
     * @param baselineResource class-path name of a baseline file, such as {@code baselines/loopback.json}
     * @return the report, for further checks
     * @throws AssertionError listing every failing metric with base, current, change and tolerance
     * @throws IllegalArgumentException when the resource name is empty, absolute or has a
     *     {@code ..} element, when the resource is a directory, missing (the message names
     *     {@value #SAVE_PROPERTY} and a Maven command that makes it) or not a baseline of this
     *     version, or when saving, a resource name that leaves the directory
     * @throws UncheckedIOException when saving, an existing baseline without {@value #OVERWRITE_PROPERTY},
     *     or a write that failed
     */
    public GateReport hasNoRegressionAgainst(String baselineResource) {
        return hasNoRegressionAgainst(baselineResource, null);
    }

    /** As {@link #hasNoRegressionAgainst(String)}; {@code testSelector} ({@code -Dtest}) names the test in messages. */
    GateReport hasNoRegressionAgainst(String baselineResource, String testSelector) {
        BaselineResources.checkName(baselineResource);
        String saveDir = System.getProperty(SAVE_PROPERTY, "");
        if (saveDir.isBlank()) {
            String content = BaselineResources.read(baselineResource, testSelector);
            return hasNoRegressionAgainst(Baseline.parse(baselineResource, content));
        }
        try {
            // the directory the user named is made, as the resource's own folders are: a new project has no src/test/resources
            Files.createDirectories(Path.of(saveDir));
            Path target = new SafePaths(Path.of(saveDir)).forCreating(baselineResource);
            save(target, Boolean.getBoolean(OVERWRITE_PROPERTY), false);
        } catch (FileAlreadyExistsException e) {
            throw new UncheckedIOException("not saving baseline " + e.getFile() + ": it exists, and a baseline is"
                    + " only replaced on purpose; run with -D" + OVERWRITE_PROPERTY + "=true to replace it", e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save baseline " + baselineResource + " under " + saveDir + ": "
                    + BaselineResources.reason(e), e);
        }
        return gate(null);
    }

    /**
     * Gates the metrics against {@code baseline}.
     *
     * @param baseline the baseline
     * @return the report, for further checks
     * @throws AssertionError listing every failing metric with base, current, change and tolerance
     */
    public GateReport hasNoRegressionAgainst(Baseline baseline) {
        return gate(Objects.requireNonNull(baseline, "baseline"));
    }

    /**
     * Writes the metrics as a baseline file ({@link Baseline}) at {@code file}, as given, recording
     * the environment of {@link #requiringSameEnvironment(Environment)}, or this machine's with the
     * result's transport ({@link #assertThat(MeasurementResult)}; {@code unspecified} for bare
     * metrics). The metrics are published as by the assertions, the file's absolute path as the
     * report entry {@code linerate.baseline.saved}, and {@code linerate: saved baseline <path> (<n> series)}
     * is printed on stdout.
     *
     * @param file where the baseline goes
     * @param overwrite whether an existing file may be replaced
     * @return the baseline written
     * @throws java.nio.file.FileAlreadyExistsException when {@code file} exists and {@code overwrite} is false
     * @throws IOException when it cannot be written
     */
    public Baseline saveBaseline(Path file, boolean overwrite) throws IOException {
        return save(file, overwrite, true);
    }

    private Baseline save(Path file, boolean overwrite, boolean publish) throws IOException {
        Baseline b = Baseline.of(metricSet(publish), environment != null ? environment : Environment.detect(transport),
                Instant.now().truncatedTo(ChronoUnit.SECONDS));
        GateFiles.writeBaseline(file, b, overwrite);
        BaselineResources.reportSaved(file, b, reporter, System.out);
        return b;
    }

    private MetricSet metricSet(boolean publish) {
        MetricSet set = new MetricSet();
        java.util.Set<String> named = new java.util.HashSet<>();
        for (Metric m : metrics) {
            if (named.add(m.name())) {
                set.addPolicy(io.linerate.regression.internal.PolicyParser.parse(
                        io.linerate.regression.internal.Json.tree(io.linerate.core.sink.MetricJson.defaultPolicy(m)), false, Policy.Source.EMBEDDED, new ArrayList<>()));
            }
            set.add(new Observation(new SeriesKey(test, m.name(), m.host(), new java.util.TreeMap<>(m.labels())), "test",
                    m.value(), m.unit(), m.timeSeconds(), "test", 0));
            if (publish) {
                publish(m);
            }
        }
        return set;
    }

    private void publish(Metric m) {
        if (reporter != null) {
            reporter.publishEntry("linerate." + m.name() + "@" + m.host(),
                    Fmt.num(m.value()) + (m.unit().isEmpty() ? "" : " " + m.unit()));
        }
    }

    private GateReport gate(Baseline baseline) {
        MetricSet set = metricSet(true);
        GateReport report = Gate.create().baseline(baseline).policies(policies).tolerance(tolerance)
                .environment(environment).allowEnvironmentMismatch(environment == null).run(set);
        if (!report.failures().isEmpty()) {
            StringBuilder sb = new StringBuilder("metrics regressed against the baseline:");
            for (Verdict v : report.failures()) {
                sb.append("\n  ").append(v.key().display()).append(": ").append(v.kind().label());
                if (v.baseline() != null || v.current() != null) {
                    sb.append(' ').append(Reports.change(v)).append(' ').append(Reports.numbers(v));
                }
                if (v.kind() != Verdict.Kind.REGRESSION) {
                    sb.append(" - ").append(v.reason());
                }
            }
            throw new AssertionError(sb.toString());
        }
        return report;
    }
}
