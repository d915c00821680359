package io.linerate.regression.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import io.linerate.regression.SkippedTest;
import java.util.List;
import java.util.TreeMap;

/**
 * linerate's own JSON results, in a text log's lines ({@link LogReader}) or a whole document
 * ({@link LinerateJsonReader}): a result of any pattern ({@code "format":"linerate-result"}), read as
 * its {@code metrics} under its {@code test}, and a stream or suite line ({@code "marker"}), read as
 * its {@code metrics} under the test its marker names, or, written before lines carried metrics, as
 * {@code <marker>_mbps} from {@code bits_per_second}. A result or line marked
 * {@code "interrupted": true} (stopped by SIGINT before its bound) is an error, never a run: it
 * measured less than it asked for.
 */
final class LinerateResults {
    private LinerateResults() {}

    /**
     * Why a run stopped before its bound is no run to gate or to save as a baseline, for the
     * error of its test; shared with the KTAP reading ({@code not ok N test # interrupted}).
     */
    static String interrupted(String what) {
        return what + " was interrupted (stopped by SIGINT before its bound): it measured less than it asked for, so it"
                + " is gated neither as a run nor as a baseline; run it again to its end";
    }

    /** @return whether {@code n} is the one result shape of every pattern ({@code "format":"linerate-result"}) */
    static boolean isResult(JsonNode n) {
        return n != null && n.isObject() && LogReader.RESULT_FORMAT.equals(n.path("format").asText(""));
    }

    /**
     * Reads a whole result of any pattern: its {@code metrics} records, or one error when it is
     * marked invalid (its metrics must not be gated) or has no metrics array.
     */
    static void result(String source, int line, JsonNode n, List<LogReader.Pending> read, MetricSet out) {
        String pattern = n.path("pattern").asText("?");
        if (n.path("interrupted").asBoolean(false)) {
            out.error(new Problem(source, line, "", "", interrupted(pattern + " result " + n.path("test").asText(""))));
            return;
        }
        if (!n.path("valid").asBoolean(false)) {
            out.error(new Problem(source, line, "", "local", pattern + " result is marked invalid: "
                    + Json.line(n.path("invalid_reasons"))));
            return;
        }
        JsonNode metrics = n.get("metrics");
        if (metrics == null || !metrics.isArray()) {
            out.error(new Problem(source, line, "", "", pattern + " result has no metrics array"));
            return;
        }
        String test = n.path("test").isTextual() ? n.get("test").asText() : "";
        for (JsonNode m : metrics) {
            LogReader.metricNode(source, line, m, LogReader.RESULT_JSON, test, read, out);
        }
    }

    static void resultLine(String source, int line, JsonNode n, List<LogReader.Pending> read, MetricSet out) {
        JsonNode marker = n.get("marker");
        if (!marker.isTextual() || !LogReader.NAME.matcher(marker.asText()).matches()) {
            out.error(new Problem(source, line, "", "", "result line marker " + marker + " is not allowed; allowed: a string of [A-Za-z0-9_.:/-]+"));
            return;
        }
        if (n.path("interrupted").asBoolean(false)) {
            out.error(new Problem(source, line, "", "", interrupted("result line " + marker.asText())));
            return;
        }
        if (n.path("skipped").asBoolean(false)) {
            // the suite's record of a marker it did not run ({"marker":..,"skipped":true,"reason":..}):
            // a skipped test, as "ok N marker # SKIP reason" is in KTAP
            out.addSkipped(new SkippedTest(marker.asText(), n.path("reason").asText(""), source, line));
            return;
        }
        String name = marker.asText() + "_mbps";
        JsonNode version = n.get("version");
        if (version == null || !version.isInt() || version.asInt() != 1) {
            out.error(new Problem(source, line, name, "local", "result line " + marker.asText() + " has version " + version
                    + "; this linerate reads version 1"));
            return;
        }
        JsonNode bps = n.get("bits_per_second");
        if (bps == null || bps.isNull()) {
            out.error(new Problem(source, line, name, "local", "result line " + marker.asText()
                    + " has no bits_per_second (the measured window was empty)"));
            return;
        }
        if (!bps.isNumber() || !Double.isFinite(bps.asDouble()) || bps.asDouble() < 0) {
            out.error(new Problem(source, line, name, "local", "result line " + marker.asText() + ": bits_per_second " + bps
                    + " is not allowed; allowed: a finite number >= 0"));
            return;
        }
        if (n.has("valid") && !n.get("valid").asBoolean(true)) {
            out.error(new Problem(source, line, name, "local", "result line " + marker.asText() + " is marked invalid: "
                    + Json.line(n.path("reasons"))));
            return;
        }
        JsonNode metrics = n.get("metrics");
        if (metrics != null && metrics.isArray()) {
            // the result's own metrics, under the test its marker names, as its --ktap output keys them
            for (JsonNode m : metrics) {
                LogReader.metricNode(source, line, m, LogReader.RESULT_JSON, marker.asText(), read, out);
            }
            return;
        }
        read.add(new LogReader.Pending(new Observation(new SeriesKey(marker.asText(), name, "local", new TreeMap<>()), source,
                bps.asDouble() / 1e6, "Mbit/s", 0, source, line), LogReader.RESULT_JSON, true));
    }
}
