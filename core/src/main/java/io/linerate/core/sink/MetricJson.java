package io.linerate.core.sink;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;

/**
 * The JSON objects of docs/metrics.md sections 2 and 3, as one line of JSON text each. Keys are
 * written in alphabetical order, as the kernel's drv-net selftests print them.
 */
public final class MetricJson {
    /** Tolerance written into default policies: 5 % ({@link MetricDefaults#RELATIVE_TOLERANCE}). */
    public static final double DEFAULT_RELATIVE_TOLERANCE = MetricDefaults.RELATIVE_TOLERANCE;

    private MetricJson() {}

    /** @return {@code {"host","labels"?,"name","shape","time","unit"?,"value"}} for {@code m}, on one line */
    public static String metric(Metric m) {
        return metricObject(m).toJson();
    }

    /** @return the object {@link #metric} writes */
    public static JsonObject metricObject(Metric m) {
        JsonObject n = JsonObject.create();
        n.put("host", m.host());
        if (!m.labels().isEmpty()) {
            JsonObject labels = JsonObject.create();
            m.labels().forEach(labels::put);
            n.put("labels", labels);
        }
        n.put("name", m.name());
        n.put("shape", Metric.SHAPE_SCALAR);
        n.put("time", Math.round(m.timeSeconds() * 1e6) / 1e6);
        if (!m.unit().isEmpty()) {
            n.put("unit", m.unit());
        }
        n.put("value", m.value());
        return n;
    }

    /**
     * @return the default policy for {@code m} ({@link #defaultPolicy(String, String, Better, boolean)}
     *     with the metric's own direction), advisory when the metric is marked advisory or its name
     *     makes it so by default (jitter)
     */
    public static String defaultPolicy(Metric m) {
        return defaultPolicy(m.name(), m.unit(), m.better(), m.advisory() || MetricDefaults.isAdvisory(m.name()));
    }

    /**
     * The default policy of {@link MetricDefaults}: {@code {"name","regression":{"better","compare":"p50",
     * "relative_tolerance":0.05},"summarize":"distribution"}}; for a loss in percent
     * ({@link MetricDefaults#isLossPercent}) relative tolerance 0 and
     * {@code "absolute_tolerance":1} (percentage points); then {@code "advisory":true} when advisory. A
     * count of retransmitted segments ({@link MetricDefaults#isRetransmitCount}) gets kperf's
     * report-only {@code {"name","summarize":"max"}} instead.
     *
     * @param name the metric's name
     * @param unit its unit; empty when unknown
     * @param better its direction
     * @param advisory whether a regression is only reported
     * @return the policy object on one line
     */
    public static String defaultPolicy(String name, String unit, Better better, boolean advisory) {
        if (MetricDefaults.isRetransmitCount(name, unit)) {
            return JsonObject.create().put("name", name).put("summarize", "max").toJson();
        }
        boolean loss = MetricDefaults.isLossPercent(name, unit);
        JsonObject n = JsonObject.create();
        n.put("name", name);
        n.put("regression", JsonObject.create()
                .put("better", better.label())
                .put("compare", "p50")
                .put("relative_tolerance", loss ? 0.0 : DEFAULT_RELATIVE_TOLERANCE));
        n.put("summarize", "distribution");
        if (loss) {
            n.put("absolute_tolerance", MetricDefaults.LOSS_TOLERANCE_PERCENTAGE_POINTS);
        }
        if (advisory) {
            n.put("advisory", true);
        }
        return n.toJson();
    }
}
