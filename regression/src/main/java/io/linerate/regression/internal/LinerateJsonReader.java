package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Problem;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a whole document of linerate's JSON: one result of any pattern (as {@code ResultJson.of}
 * writes it: its {@code metrics} records are read, and an invalid result is an error), one stream
 * summary (as {@code ResultJson.transfer} writes it, possibly indented over many lines), an array
 * of either, or an array of metric records. Each stream summary is read as metric
 * {@code <marker>_mbps} in Mbit/s
 * ({@code bits_per_second / 1e6}), exactly as {@link LogReader} reads a one-line result; elements
 * are numbered from 1 in place of line numbers. JSON lines (one object per line) are left to
 * {@link LogReader}.
 */
public final class LinerateJsonReader implements MetricReader {
    @Override
    public String format() {
        return "linerate-json";
    }

    @Override
    public boolean accepts(String content) {
        content = InputText.withoutBom(content);
        char c = Json.firstChar(content);
        if (c != '{' && c != '[') {
            return false;
        }
        JsonNode n = Json.parseWhole(content);
        if (n == null) {
            return false;
        }
        if (n.isObject()) {
            return LinerateResults.isResult(n) || n.has("marker") && n.has("version");
        }
        return n.isArray() && n.size() > 0 && n.get(0).isObject()
                && (LinerateResults.isResult(n.get(0)) || n.get(0).has("marker") || n.get(0).has("shape"));
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        content = InputText.withoutBom(content);
        JsonNode n;
        try {
            n = Json.readDistinct(content);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, Json.lineOf(e), "", "", "linerate JSON document cannot be read: " + Json.reason(e)));
            return;
        }
        List<LogReader.Pending> read = new ArrayList<>();
        if (LinerateResults.isResult(n)) {
            LinerateResults.result(source, 1, n, read, out);
        } else if (n.isObject()) {
            LinerateResults.resultLine(source, 1, n, read, out);
        } else {
            int i = 0;
            for (JsonNode e : n) {
                i++;
                if (LinerateResults.isResult(e)) {
                    LinerateResults.result(source, i, e, read, out);
                } else if (e.isObject() && e.has("marker")) {
                    LinerateResults.resultLine(source, i, e, read, out);
                } else {
                    LogReader.metricNode(source, i, e, LogReader.RESULT_JSON, read, out);
                }
            }
        }
        for (LogReader.Pending p : read) {
            out.add(p.o());
        }
    }
}
