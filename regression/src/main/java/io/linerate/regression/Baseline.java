package io.linerate.regression;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.regression.internal.InputText;
import io.linerate.regression.internal.Json;
import io.linerate.regression.internal.PolicyParser;
import io.linerate.regression.internal.UnitRange;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A stored baseline (docs/metrics.md section 4): a versioned JSON document
 * <pre>{@code
 * {"format":"linerate-baseline","version":3,"created":"2026-01-01T00:00:00Z",
 *  "environment":{"kernel":..,"cpu":..,"jvm":..,"transport":..,"linerate":..},
 *  "series":[{"test":"","name":"udp4_mbps","host":"local","labels":{},"unit":"Mbit/s",
 *    "policy":{"name":"udp4_mbps","regression":{..},"summarize":..,..},
 *    "runs":[{"run":"run.log","samples":[..],"times":[..],
 *             "summary":{"count":5,"mean":..,"min":..,"max":..,"p50":..}}]}]}
 * }</pre>
 * Samples are the raw kept samples (omitted ones excluded) in reading order, in the series' unit;
 * times are in seconds; summaries are informative and recomputed from the samples when gating.
 * {@code policy} is the policy the series was judged with when the baseline was saved (absent when
 * none applied), with every field written out; a later gate uses it when neither a policy file nor
 * the current input's policy lines name the metric.
 *
 * <p>Versions: 2 keys a series by its whole KTAP test path ({@code port_a/throughput}) and stores
 * its policy. Version 1 (still read) keyed a series by its innermost test name only and stored no
 * policy; its series are read with that test as their path, so baselines of logs without nested
 * tests compare as before.
 *
 * @param version the format version the baseline was read from or is written as (1 to 3; a baseline before 3 is read under today's keys, see {@code LegacyKeys})
 * @param created when the baseline was written, RFC 3339 UTC
 * @param environment where it was measured
 * @param series the series in first-read order
 */
public record Baseline(int version, String created, Environment environment, List<Series> series) {
    /** Value of {@code format}. */
    public static final String FORMAT = "linerate-baseline";
    /** The version this linerate writes. */
    public static final int VERSION = 3;
    /** The oldest version this linerate reads. */
    public static final int OLDEST_VERSION = 1;

    /** A baseline of the current {@link #VERSION}. */
    public Baseline(String created, Environment environment, List<Series> series) {
        this(VERSION, created, environment, series);
    }

    /**
     * One series of a baseline.
     *
     * @param key series key
     * @param unit unit of every sample
     * @param runs runs in first-read order
     * @param policy the policy it was judged with when saved, with source {@link Policy.Source#BASELINE}
     *     once read back; null when none
     */
    public record Series(SeriesKey key, String unit, List<Run> runs, Policy policy) {
        /** A series without a stored policy. */
        public Series(SeriesKey key, String unit, List<Run> runs) {
            this(key, unit, runs, null);
        }
    }

    /**
     * One run's kept samples.
     *
     * @param run run id
     * @param samples values in reading order
     * @param times seconds, one per sample
     */
    public record Run(String run, double[] samples, double[] times) {}

    /**
     * Builds a baseline from what was read, without policies; {@link Gate#baselineOf} stores the
     * policy each series is judged with. Callers should refuse to save when the input has errors.
     *
     * @param current what was read
     * @param environment where it was measured
     * @param created when, written as RFC 3339 UTC
     * @return the baseline
     */
    public static Baseline of(MetricSet current, Environment environment, Instant created) {
        Map<SeriesKey, String> units = new LinkedHashMap<>();
        Map<SeriesKey, Map<String, List<Observation>>> byKey = new LinkedHashMap<>();
        for (Observation o : current.observations()) {
            units.putIfAbsent(o.key(), o.unit());
            byKey.computeIfAbsent(o.key(), k -> new LinkedHashMap<>()).computeIfAbsent(o.run(), r -> new ArrayList<>()).add(o);
        }
        List<Series> series = new ArrayList<>();
        byKey.forEach((key, runs) -> {
            List<Run> rs = new ArrayList<>();
            runs.forEach((run, obs) -> rs.add(new Run(run, obs.stream().mapToDouble(Observation::value).toArray(),
                    obs.stream().mapToDouble(Observation::timeSeconds).toArray())));
            series.add(new Series(key, units.get(key), rs));
        });
        return new Baseline(created.toString(), environment, series);
    }

    /**
     * @param current the series keys of the current input
     * @return a warning when this baseline is of version 1, which keyed a series by its innermost
     *     KTAP test only, and {@code current} has nested test paths that cannot match it
     */
    public Optional<Problem> keyWarning(Collection<SeriesKey> current) {
        if (version != 1) {
            return Optional.empty();
        }
        return current.stream().filter(k -> k.test().contains("/")).findFirst().map(k -> new Problem("baseline", 0, "", "",
                "the baseline is of format version 1, which keyed a series by its innermost KTAP test only, while this"
                        + " input nests tests (such as " + k.display() + "); save a new baseline from a trusted run"));
    }

    /** @return the baseline as a JSON document, two-space indented, keys in the order documented above */
    public String toJson() {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", FORMAT);
        root.put("version", version);
        root.put("created", created);
        ObjectNode env = root.putObject("environment");
        env.put("kernel", environment.kernel());
        env.put("cpu", environment.cpu());
        env.put("jvm", environment.jvm());
        env.put("transport", environment.transport());
        env.put("linerate", environment.linerateVersion());
        ArrayNode arr = root.putArray("series");
        for (Series s : series) {
            ObjectNode n = arr.addObject();
            n.put("test", s.key().test());
            n.put("name", s.key().name());
            n.put("host", s.key().host());
            ObjectNode labels = n.putObject("labels");
            s.key().labels().forEach(labels::put);
            n.put("unit", s.unit());
            if (s.policy() != null) {
                n.set("policy", PolicyParser.toJson(s.policy()));
            }
            ArrayNode runs = n.putArray("runs");
            for (Run r : s.runs()) {
                ObjectNode rn = runs.addObject();
                rn.put("run", r.run());
                ArrayNode samples = rn.putArray("samples");
                for (double v : r.samples()) {
                    samples.add(v);
                }
                ArrayNode times = rn.putArray("times");
                for (double t : r.times()) {
                    times.add(t);
                }
                ObjectNode sum = rn.putObject("summary");
                sum.put("count", r.samples().length);
                if (r.samples().length > 0) {
                    sum.put("mean", Compare.parse("mean").of(r.samples()));
                    sum.put("min", Compare.parse("min").of(r.samples()));
                    sum.put("max", Compare.parse("max").of(r.samples()));
                    sum.put("p50", Compare.parse("p50").of(r.samples()));
                }
            }
        }
        try {
            return Json.PRETTY.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write baseline: " + e.getMessage(), e);
        }
    }

    /**
     * @param source name of the file, for messages
     * @param content the document
     * @return the baseline
     * @throws IllegalArgumentException for invalid JSON, another format, a version other than 1 to 3
     *     (naming it and the versions this linerate reads), a malformed series, a series given twice or a bad stored policy
     */
    public static Baseline parse(String source, String content) {
        JsonNode root;
        try {
            root = Json.readDistinct(InputText.withoutBom(content));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(Json.unreadable("baseline", source, e));
        }
        if (root == null || root.isMissingNode()) {
            throw new IllegalArgumentException("baseline " + source + " is empty; allowed: a JSON object with \"format\": \""
                    + FORMAT + "\"");
        }
        if (!root.isObject() || !FORMAT.equals(root.path("format").asText())) {
            throw new IllegalArgumentException("baseline " + source + " has format "
                    + (root.isObject() ? shown(root.path("format")) : "(none: it is not a JSON object)")
                    + "; allowed: \"" + FORMAT + "\"");
        }
        JsonNode version = root.path("version");
        if (!version.isInt() || version.asInt() < OLDEST_VERSION || version.asInt() > VERSION) {
            throw new IllegalArgumentException("baseline " + source + " has format version " + shown(version)
                    + "; this linerate reads versions " + OLDEST_VERSION + " to " + VERSION);
        }
        JsonNode env = root.path("environment");
        Environment environment = new Environment(env.path("kernel").asText(""), env.path("cpu").asText(""),
                env.path("jvm").asText(""), env.path("transport").asText(""), env.path("linerate").asText(""));
        if (!root.path("series").isArray()) {
            throw new IllegalArgumentException("baseline " + source + " has no \"series\" array; allowed: a "
                    + FORMAT + " document as written by gate --save");
        }
        List<Series> series = new ArrayList<>();
        java.util.Set<SeriesKey> keys = new java.util.HashSet<>();
        int i = 0;
        for (JsonNode s : root.path("series")) {
            i++;
            String where = "baseline " + source + ", series #" + i;
            if (!s.path("name").isTextual() || !s.path("host").isTextual()) {
                throw new IllegalArgumentException(where + ": name and host must be strings");
            }
            shape(s.path("labels"), JsonNode::isObject, where, "/series/" + (i - 1) + "/labels", "an object of strings");
            TreeMap<String, String> labels = new TreeMap<>();
            for (Map.Entry<String, JsonNode> e : s.path("labels").properties()) {
                labels.put(e.getKey(), e.getValue().asText());
            }
            SeriesKey key = new SeriesKey(s.path("test").asText(""), s.get("name").asText(), s.get("host").asText(), labels);
            if (!keys.add(key)) {
                throw new IllegalArgumentException(where + ": series " + key.display() + " is there twice; allowed: each"
                        + " series once (its runs hold all its samples)");
            }
            String unit = s.path("unit").asText("");
            List<Run> runs = new ArrayList<>();
            JsonNode rs = s.path("runs");
            shape(rs, JsonNode::isArray, where + " (" + key.display() + ")", "/series/" + (i - 1) + "/runs", "an array of runs");
            for (int ri = 0; ri < rs.size(); ri++) {
                String runPath = "/series/" + (i - 1) + "/runs/" + ri;
                if (!rs.get(ri).isObject()) {
                    throw new IllegalArgumentException(where + " (" + key.display() + "): " + runPath + " is " + rs.get(ri)
                            + "; allowed: an object with \"samples\"");
                }
                shape(rs.get(ri).path("samples"), JsonNode::isArray, where + " (" + key.display() + ")", runPath + "/samples",
                        "an array of numbers");
                shape(rs.get(ri).path("times"), JsonNode::isArray, where + " (" + key.display() + ")", runPath + "/times",
                        "an array of seconds");
                String path = runPath + "/samples/";
                runs.add(run(rs.get(ri), unit, where + " (" + key.display() + ")", path));
            }
            Policy policy = null;
            if (s.hasNonNull("policy")) {
                try {
                    policy = PolicyParser.parse(s.get("policy"), true, Policy.Source.BASELINE, new ArrayList<>());
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(where + " (" + key.display() + "): " + e.getMessage());
                }
            }
            series.add(new Series(key, unit, runs, policy));
        }
        return new Baseline(version.asInt(), root.path("created").asText(""), environment, series);
    }

    /**
     * @return one stored run, every sample finite and allowed by the series' {@code unit}, every
     *     time a finite number of seconds >= 0
     * @throws IllegalArgumentException naming the series and the sample's JSON Pointer path
     */
    private static Run run(JsonNode r, String unit, String where, String path) {
        JsonNode samples = r.path("samples");
        JsonNode times = r.path("times");
        double[] v = new double[samples.size()];
        double[] t = new double[samples.size()];
        for (int j = 0; j < v.length; j++) {
            JsonNode x = samples.get(j);
            if (!x.isNumber() || !Double.isFinite(x.asDouble())) {
                throw new IllegalArgumentException(where + ", sample " + path + j + ": " + x
                        + " is not allowed; allowed: a finite number");
            }
            String refused = UnitRange.refusal(x.asDouble(), unit);
            if (refused != null) {
                throw new IllegalArgumentException(where + ", sample " + path + j + ": " + refused);
            }
            v[j] = x.asDouble();
            JsonNode time = times.path(j);
            t[j] = time.asDouble(0);
            if (!time.isMissingNode() && (!time.isNumber() || !Double.isFinite(t[j]) || t[j] < 0)) {
                throw new IllegalArgumentException(where + ", time " + path.replace("/samples/", "/times/") + j + ": "
                        + (time.isNumber() ? String.valueOf(t[j]) : time.toString()) + " is not allowed; allowed: a"
                        + " number of seconds >= 0");
            }
        }
        return new Run(r.path("run").asText(""), v, t);
    }

    /**
     * Refuses a node present with the wrong JSON type; a missing node passes (its default applies).
     *
     * @throws IllegalArgumentException naming the node's JSON Pointer path, what it is and what is allowed
     */
    private static void shape(JsonNode n, java.util.function.Predicate<JsonNode> ok, String where, String path,
            String allowed) {
        if (!n.isMissingNode() && !n.isNull() && !ok.test(n)) {
            throw new IllegalArgumentException(where + ": " + path + " is " + n + "; allowed: " + allowed);
        }
    }

    /** @return the node as JSON, or {@code (none)} where the field is missing */
    private static String shown(JsonNode n) {
        return n.isMissingNode() ? "(none)" : n.toString();
    }
}
