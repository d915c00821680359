package io.linerate.core.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;

/**
 * The JSON objects of docs/metrics.md sections 2 and 3, built with Jackson. Keys are written in
 * alphabetical order, as the kernel's drv-net selftests print them.
 */
public final class MetricJson {
    /** The shared mapper; thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** Tolerance written into default policies: 5 % ({@link MetricDefaults#RELATIVE_TOLERANCE}). */
    public static final double DEFAULT_RELATIVE_TOLERANCE = MetricDefaults.RELATIVE_TOLERANCE;

    private MetricJson() {}

    /** @return {@code {"host","labels"?,"name","shape","time","unit"?,"value"}} for {@code m} */
    public static ObjectNode metric(Metric m) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("host", m.host());
        if (!m.labels().isEmpty()) {
            ObjectNode labels = n.putObject("labels");
            m.labels().forEach(labels::put);
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
    public static ObjectNode defaultPolicy(Metric m) {
        return defaultPolicy(m.name(), m.unit(), m.better(), m.advisory() || MetricDefaults.isAdvisory(m.name()));
    }

    /**
     * The default policy of {@link MetricDefaults}: {@code {"name","regression":{"better","compare":"p50",
     * "relative_tolerance":0.05},"summarize":"distribution"}}; for a loss in percent
     * ({@link MetricDefaults#isLossPercent}) relative tolerance 0 and
     * {@code "absolute_tolerance":1} (percentage points); then {@code "advisory":true} when advisory.
     *
     * @param name the metric's name
     * @param unit its unit; empty when unknown
     * @param better its direction
     * @param advisory whether a regression is only reported
     * @return the policy object
     */
    public static ObjectNode defaultPolicy(String name, String unit, Better better, boolean advisory) {
        boolean loss = MetricDefaults.isLossPercent(name, unit);
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", name);
        ObjectNode r = n.putObject("regression");
        r.put("better", better.label());
        r.put("compare", "p50");
        r.put("relative_tolerance", loss ? 0.0 : DEFAULT_RELATIVE_TOLERANCE);
        n.put("summarize", "distribution");
        if (loss) {
            n.put("absolute_tolerance", MetricDefaults.LOSS_TOLERANCE_PERCENTAGE_POINTS);
        }
        if (advisory) {
            n.put("advisory", true);
        }
        return n;
    }

    /** @return {@code node} on one line */
    public static String toLine(Object node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write JSON: " + e.getMessage(), e);
        }
    }
}
