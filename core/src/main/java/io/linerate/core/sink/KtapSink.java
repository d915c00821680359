package io.linerate.core.sink;

import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;

/**
 * Writes ktap metric lines as the kernel's drv-net selftests print them (docs/metrics.md section 1):
 * before the first metric of each name a {@code # ktap-metric-policy-json:} line with its default
 * policy, then one {@code # ktap-metric-json:} line per metric. KTAP harnesses treat these as
 * diagnostics, so they never change a test's result.
 */
public final class KtapSink implements MetricSink {
    /** Tag of a metric line. */
    public static final String METRIC_TAG = "ktap-metric-json";
    /** Tag of a policy line. */
    public static final String POLICY_TAG = "ktap-metric-policy-json";

    private final PrintWriter out;
    private final Set<String> policiesWritten = new HashSet<>();

    /** @param out where lines go, as UTF-8; flushed on close */
    public KtapSink(PrintStream out) {
        this(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    }

    /** @param out where lines go; flushed on close */
    public KtapSink(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void accept(Metric metric) {
        if (policiesWritten.add(metric.name())) {
            out.println("# " + POLICY_TAG + ": " + MetricJson.defaultPolicy(metric));
        }
        out.println("# " + METRIC_TAG + ": " + MetricJson.metric(metric));
    }

    @Override
    public void close() {
        out.flush();
    }
}
