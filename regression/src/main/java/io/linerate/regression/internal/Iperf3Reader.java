package io.linerate.regression.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import java.util.Locale;

/**
 * Reads iperf3's {@code -J} output: one sample per entry of {@code intervals[]}, taken from its
 * {@code sum}; intervals whose {@code sum.omitted} is true (iperf3's {@code -O} warm-up) are
 * excluded. Metrics, with {@code <p>} the lower-case {@code start.test_start.protocol}:
 * {@code iperf3_<p>_mbps} ({@code bits_per_second / 1e6}, Mbit/s), and where the interval carries
 * them {@code iperf3_<p>_jitter_ms} (ms) and {@code iperf3_<p>_lost_pct} (%). The sample time is
 * {@code sum.end} in seconds. A top-level {@code error} is an error for the whole input.
 */
public final class Iperf3Reader implements MetricReader {
    @Override
    public String format() {
        return "iperf3";
    }

    @Override
    public boolean accepts(String content) {
        if (Json.firstChar(content) != '{') {
            return false;
        }
        JsonNode n = Json.parseWhole(content);
        return n != null && n.has("start") && (n.has("intervals") || n.has("error"));
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        JsonNode root = Json.parseWhole(content);
        if (root == null) {
            out.error(new Problem(source, 0, "", "", "iperf3 output is not valid JSON"));
            return;
        }
        String protocol = root.path("start").path("test_start").path("protocol").asText("tcp").toLowerCase(Locale.ROOT);
        String prefix = "iperf3_" + protocol.replaceAll("[^a-z0-9]", "_");
        if (root.hasNonNull("error")) {
            out.error(new Problem(source, 0, prefix + "_mbps", "local", "iperf3 reported an error: " + root.get("error").asText()));
            return;
        }
        int index = 0;
        for (JsonNode interval : root.path("intervals")) {
            index++;
            JsonNode sum = interval.path("sum");
            if (sum.path("omitted").asBoolean(false)) {
                continue;
            }
            double time = sum.path("end").asDouble(0);
            sample(source, index, prefix + "_mbps", sum.get("bits_per_second"), 1e6, "Mbit/s", time, out);
            if (sum.has("jitter_ms")) {
                sample(source, index, prefix + "_jitter_ms", sum.get("jitter_ms"), 1, "ms", time, out);
            }
            if (sum.has("lost_percent")) {
                sample(source, index, prefix + "_lost_pct", sum.get("lost_percent"), 1, "%", time, out);
            }
        }
    }

    private static void sample(String source, int index, String name, JsonNode v, double divisor, String unit,
                               double time, MetricSet out) {
        if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
            out.error(new Problem(source, 0, name, "local", "iperf3 interval " + index + ": " + name + " value " + v
                    + " is not allowed; allowed: a finite number"));
            return;
        }
        out.add(new Observation(SeriesKey.of(name, "local"), source, v.asDouble() / divisor, unit, time, source, 0));
    }
}
