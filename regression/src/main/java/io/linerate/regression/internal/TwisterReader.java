package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads a Zephyr twister report ({@code twister.json}): every entry of {@code testsuites[].recording}
 * (the groups a harness recorded, values as strings or numbers). An entry with {@code value} is one
 * metric named by its {@code metric} (or {@code name}) field; otherwise every field holding a number
 * is a metric named {@code <metric>_<field>} (or {@code <field>} without {@code metric}); other text
 * fields are ignored. Characters outside {@code [A-Za-z0-9_.:/-]} in names become {@code _}. The
 * test is the suite's {@code name}, the host {@code local}, the label {@code platform} the suite's
 * platform; the unit is the entry's {@code unit}, else {@code Mbit/s} for names ending in
 * {@code _mbps}, else none.
 */
public final class TwisterReader implements MetricReader {
    private static final Set<String> RESERVED = Set.of("metric", "name", "unit", "value");

    @Override
    public String format() {
        return "twister";
    }

    @Override
    public boolean accepts(String content) {
        content = InputText.withoutBom(content);
        if (Json.firstChar(content) != '{') {
            return false;
        }
        JsonNode n = Json.parseWhole(content);
        return n != null && n.path("testsuites").isArray();
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        content = InputText.withoutBom(content);
        JsonNode root;
        try {
            root = Json.readDistinct(content);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, Json.lineOf(e), "", "", "twister report cannot be read: " + Json.reason(e)));
            return;
        }
        JsonNode suites = root.path("testsuites");
        for (int si = 0; si < suites.size(); si++) {
            JsonNode suite = suites.get(si);
            JsonNode recording = suite.get("recording");
            if (recording == null || recording.isNull()) {
                continue;
            }
            String test = suite.path("name").asText("");
            TreeMap<String, String> labels = new TreeMap<>();
            if (suite.hasNonNull("platform")) {
                labels.put("platform", suite.get("platform").asText());
            }
            if (!recording.isArray()) {
                out.error(new Problem(source, 0, "", "", "suite " + test + ": recording " + recording + " is not allowed; allowed: an array of objects"));
                continue;
            }
            for (int ri = 0; ri < recording.size(); ri++) {
                JsonNode entry = recording.get(ri);
                String where = "/testsuites/" + si + "/recording/" + ri + "/";
                if (!entry.isObject()) {
                    out.error(new Problem(source, 0, "", "", "suite " + test + ": recording entry " + entry + " is not an object"));
                    continue;
                }
                String base = entry.hasNonNull("metric") ? entry.get("metric").asText()
                        : entry.hasNonNull("name") ? entry.get("name").asText() : null;
                String unit = entry.hasNonNull("unit") ? entry.get("unit").asText() : null;
                if (entry.has("value")) {
                    if (base == null) {
                        out.error(new Problem(source, 0, "", "", "suite " + test + ": recording entry " + entry + " has a value but no metric name"));
                        continue;
                    }
                    add(source, where + "value", test, labels, sanitize(base), entry.get("value"), unit, out);
                } else {
                    for (Map.Entry<String, JsonNode> f : entry.properties()) {
                        if (RESERVED.contains(f.getKey())) {
                            continue;
                        }
                        JsonNode v = f.getValue();
                        boolean numeric = v.isNumber() || v.isTextual() && Json.NUMBER.matcher(v.asText().trim()).matches();
                        if (numeric) {
                            String name = sanitize(base == null ? f.getKey() : base + "_" + f.getKey());
                            add(source, where + f.getKey(), test, labels, name, v, unit, out);
                        }
                    }
                }
            }
        }
    }

    private static void add(String source, String where, String test, TreeMap<String, String> labels, String name,
                            JsonNode v, String unit, MetricSet out) {
        try {
            double value = v.isNumber() ? v.asDouble() : Json.parseNumber(v.asText().trim());
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("value " + v + " is not allowed; allowed: a finite decimal number");
            }
            String u = unit != null ? unit : name.endsWith("_mbps") ? "Mbit/s" : "";
            String refused = UnitRange.refusal(value, u);
            if (refused != null) {
                throw new IllegalArgumentException(refused);
            }
            out.add(new Observation(new SeriesKey(test, name, "local", labels), source, value, u, 0, source, 0));
        } catch (IllegalArgumentException e) {
            out.error(new Problem(source, 0, name, "local", "suite " + test + ", metric " + name + " (" + where + "): "
                    + e.getMessage()));
        }
    }

    private static String sanitize(String s) {
        String r = s.trim().replaceAll("[^A-Za-z0-9_.:/-]", "_");
        return r.isEmpty() ? "_" : r;
    }
}
