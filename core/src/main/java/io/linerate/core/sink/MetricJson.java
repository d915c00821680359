package io.linerate.core.sink;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Metric;

/**
 * The JSON objects of docs/metrics.md sections 2 and 3, built with Jackson. Keys are written in
 * alphabetical order, as the kernel's drv-net selftests print them.
 */
public final class MetricJson {
    /** The shared mapper; thread-safe once configured. */
    public static final ObjectMapper MAPPER = new ObjectMapper();
    /** Tolerance written into default policies: 5 %. */
    public static final double DEFAULT_RELATIVE_TOLERANCE = 0.05;

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
     * @return the default policy for {@code m}'s name: its direction, p50 with 5 % relative
     *     tolerance, samples kept as a distribution, and {@code "advisory":true} for an advisory metric
     */
    public static ObjectNode defaultPolicy(Metric m) {
        ObjectNode n = MAPPER.createObjectNode();
        n.put("name", m.name());
        ObjectNode r = n.putObject("regression");
        r.put("better", m.better().label());
        r.put("compare", "p50");
        r.put("relative_tolerance", DEFAULT_RELATIVE_TOLERANCE);
        n.put("summarize", "distribution");
        if (m.advisory()) {
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
