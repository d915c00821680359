package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Policy;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import io.linerate.regression.SkippedTest;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a text log line by line (docs/metrics.md sections 1, 2 and 6): {@code ktap-metric-json} and
 * {@code ktap-metric-policy-json} lines behind any prefix of spaces, tabs, {@code #} and
 * {@code #:}; {@code ZPERF-RESULT <name>=<value>} anywhere in a line (unit {@code Mbit/s} for names
 * ending in {@code _mbps}); linerate's JSON result lines ({@code version}, {@code marker},
 * {@code bits_per_second}, read as metric {@code <marker>_mbps} in Mbit/s); and bare metric records
 * as linerate's JSON-lines sink writes them. Other lines are ignored.
 *
 * <p>When a name and host has ktap metric lines in a log, its JSON result lines and
 * {@code ZPERF-RESULT} lines in the same log are not counted again; JSON result lines likewise
 * win over {@code ZPERF-RESULT} lines.
 *
 * <p>A metric's series key holds its test path (docs/metrics.md section 2): a metric line without
 * {@code test} belongs to the next KTAP result line ({@code ok N name}) at its own nesting depth,
 * otherwise to no test; a metric with {@code test} belongs to that test; and the names of the
 * enclosing tests, from the result lines that close them, go in front, joined with {@code /}.
 * Nesting is by indentation (four spaces or a tab per level) or by the kselftest runner's
 * {@code "# "} prefix (one per level; a metric line's own {@code #} does not count), as
 * {@code TestPaths} describes. A result line whose directive is {@code # SKIP reason} (any case,
 * {@code ok} or {@code not ok}) is recorded as a {@link SkippedTest} with its path and reason; one
 * whose directive is {@code # interrupted} (a run stopped by SIGINT) is an error of the input.
 */
public final class LogReader implements MetricReader {
    private static final Pattern TAGGED = Pattern.compile(
            "^((?:[ \\t]|#:?)*)(ktap-metric-json|ktap-metric-policy-json):[ \\t]*(.*)$");
    private static final Pattern ZPERF = Pattern.compile("ZPERF-RESULT[ \\t]+([A-Za-z0-9_.:/-]+)=(\\S*)[ \\t]*$");
    private static final Pattern ZPERF_TOKEN = Pattern.compile("(?<![A-Za-z0-9_-])ZPERF-RESULT(?![A-Za-z0-9_-])");
    private static final Pattern RESULT = Pattern.compile(
            "^((?:[ \\t]|#:?)*)(?:not )?ok [0-9]+(?: -)?[ \\t]*([^#]*?)[ \\t]*(?:#(.*))?$");
    private static final Pattern SKIP = Pattern.compile("^[ \\t]*(?i:skip)\\S*[ \\t]*(.*?)[ \\t]*$");
    private static final Pattern LEADING = Pattern.compile("^(?:[ \\t]|#:?)*");
    static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:/-]+");
    private static final int KTAP = 0;
    static final int RESULT_JSON = 1;
    /** The {@code format} of a whole result of any pattern (core's {@code ResultJson.of}). */
    static final String RESULT_FORMAT = "linerate-result";
    private static final int ZPERF_LINE = 2;
    /** The directive of a KTAP test stopped by SIGINT: {@code not ok N test # interrupted}. */
    private static final String INTERRUPTED = "interrupted";

    @Override
    public String format() {
        return "log";
    }

    @Override
    public boolean accepts(String content) {
        return true;
    }

    record Pending(Observation o, int rank, boolean hasTest) {}

    /** What one pass over a log's lines gathers: the samples with their place in the KTAP test tree, and the skipped tests. */
    private static final class Gathered {
        final List<Pending> read = new ArrayList<>();
        final List<Integer> ids = new ArrayList<>();
        final List<SkippedTest> skipped = new ArrayList<>();
        final List<Integer> skippedIds = new ArrayList<>();
        final TestPaths paths = new TestPaths();
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        content = InputText.withoutBom(content);
        Gathered g = new Gathered();
        int lineNo = 0;
        int start = 0;
        int len = content.length();
        while (start < len) {
            int end = content.indexOf('\n', start);
            if (end < 0) {
                end = len;
            }
            lineNo++;
            String line = content.substring(start, end > start && content.charAt(end - 1) == '\r' ? end - 1 : end);
            start = end + 1;
            line(source, lineNo, line, g, out);
        }
        List<Pending> read = g.read;
        for (int i = 0; i < read.size(); i++) {
            Pending p = read.get(i);
            String test = g.paths.path(g.ids.get(i));
            SeriesKey k = p.o().key();
            if (!test.equals(k.test())) {
                read.set(i, new Pending(new Observation(new SeriesKey(test, k.name(), k.host(), k.labels()), p.o().run(),
                        p.o().value(), p.o().unit(), p.o().timeSeconds(), p.o().source(), p.o().line()), p.rank(), true));
            }
        }
        for (int i = 0; i < g.skipped.size(); i++) {
            SkippedTest t = g.skipped.get(i);
            out.addSkipped(new SkippedTest(g.paths.path(g.skippedIds.get(i)), t.reason(), t.source(), t.line()));
        }
        addPreferred(read, out);
    }

    /** Reads one line: a metric or policy line, a ZPERF-RESULT line, a JSON record, or a KTAP result line. */
    private static void line(String source, int lineNo, String line, Gathered g, MetricSet out) {
        List<Pending> read = g.read;
        int before = read.size();
        if (line.indexOf("ktap-metric") >= 0) {
            Matcher m = TAGGED.matcher(line);
            if (m.matches()) {
                if (m.group(2).equals("ktap-metric-json")) {
                    metricRecord(source, lineNo, m.group(3), KTAP, read, out);
                    nest(read, before, g.ids, g.paths, TestPaths.depth(line, m.end(1), true));
                } else {
                    policy(source, lineNo, m.group(3), out);
                }
                return;
            }
        }
        if (line.indexOf("ZPERF-RESULT") >= 0 && ZPERF_TOKEN.matcher(line).find()) {
            Matcher m = ZPERF.matcher(line);
            if (m.find()) {
                zperf(source, lineNo, m.group(1), m.group(2), read, out);
                nest(read, before, g.ids, g.paths, leadingDepth(line));
            } else {
                out.error(new Problem(source, lineNo, "", "local",
                        "malformed ZPERF-RESULT line; expected 'ZPERF-RESULT <name>=<value>' with a name of "
                                + "[A-Za-z0-9_.:/-] and nothing after the value"));
            }
            return;
        }
        char first = Json.firstChar(line);
        if (first == '{') {
            jsonLine(source, lineNo, line, read, out);
            nest(read, before, g.ids, g.paths, leadingDepth(line));
            return;
        }
        if (line.indexOf("ok ") >= 0) {
            Matcher m = RESULT.matcher(line);
            if (m.matches()) {
                int depth = TestPaths.depth(line, m.end(1), false);
                String test = m.group(2);
                g.paths.result(depth, test);
                if (m.group(3) != null && m.group(3).trim().toLowerCase(java.util.Locale.ROOT).startsWith(INTERRUPTED)) {
                    out.error(new Problem(source, lineNo, "", "", LinerateResults.interrupted("KTAP test " + test)));
                }
                Matcher skip = m.group(3) == null ? null : SKIP.matcher(m.group(3));
                if (skip != null && skip.matches()) {
                    g.skippedIds.add(g.paths.add(depth, test));
                    g.skipped.add(new SkippedTest(test, skip.group(1), source, lineNo));
                }
            }
        }
    }

    /**
     * Adds the samples read, but where one metric (name and host) came from several kinds of line,
     * only those of the best kind: ktap-metric-json lines before a result's JSON before
     * ZPERF-RESULT lines.
     */
    private static void addPreferred(List<Pending> read, MetricSet out) {
        Set<String> ktap = new HashSet<>();
        Set<String> resultJson = new HashSet<>();
        for (Pending p : read) {
            String id = p.o().key().name() + "@" + p.o().key().host();
            if (p.rank() == KTAP) {
                ktap.add(id);
            } else if (p.rank() == RESULT_JSON) {
                resultJson.add(id);
            }
        }
        for (Pending p : read) {
            String id = p.o().key().name() + "@" + p.o().key().host();
            if (p.rank() == RESULT_JSON && ktap.contains(id)
                    || p.rank() == ZPERF_LINE && (ktap.contains(id) || resultJson.contains(id))) {
                continue;
            }
            out.add(p.o());
        }
    }

    /** Registers the samples read from one line (from index {@code from} on) at nesting {@code depth}. */
    private static void nest(List<Pending> read, int from, List<Integer> ids, TestPaths paths, int depth) {
        for (int i = from; i < read.size(); i++) {
            Pending p = read.get(i);
            ids.add(paths.add(depth, p.hasTest() ? p.o().key().test() : null));
        }
    }

    private static int leadingDepth(String line) {
        Matcher m = LEADING.matcher(line);
        return m.lookingAt() ? TestPaths.depth(line, m.end(), false) : 0;
    }

    private static void metricRecord(String source, int line, String payload, int rank, List<Pending> read, MetricSet out) {
        JsonNode n;
        try {
            n = Json.readDistinct(payload);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, line, "", "", "malformed ktap-metric-json payload: " + Json.reason(e)));
            return;
        }
        metricNode(source, line, n, rank, read, out);
    }

    static void metricNode(String source, int line, JsonNode n, int rank, List<Pending> read, MetricSet out) {
        metricNode(source, line, n, rank, "", read, out);
    }

    /**
     * @param defaultTest the test of a record without {@code test}, as the result or line that holds
     *     it names it; empty to leave it to the KTAP result lines
     */
    static void metricNode(String source, int line, JsonNode n, int rank, String defaultTest, List<Pending> read,
                           MetricSet out) {
        if (n == null || !n.isObject()) {
            out.error(new Problem(source, line, "", "", "metric payload is not a JSON object"));
            return;
        }
        JsonNode nameNode = n.get("name");
        JsonNode hostNode = n.get("host");
        if (nameNode == null || !nameNode.isTextual() || !NAME.matcher(nameNode.asText()).matches()) {
            out.error(new Problem(source, line, "", "", "metric name " + (nameNode == null ? "is missing" : nameNode + " is not allowed")
                    + "; allowed: a string of [A-Za-z0-9_.:/-]+"));
            return;
        }
        String name = nameNode.asText();
        if (hostNode == null || !hostNode.isTextual() || hostNode.asText().isEmpty()) {
            out.error(new Problem(source, line, name, "local", "metric " + name + ": host "
                    + (hostNode == null ? "is missing" : hostNode + " is not allowed") + "; allowed: local, remote or a host name"));
            return;
        }
        String host = hostNode.asText();
        try {
            JsonNode shape = n.get("shape");
            if (shape == null || !"scalar".equals(shape.asText()) || !shape.isTextual()) {
                throw new IllegalArgumentException("shape " + (shape == null ? "is missing" : shape + " is not allowed") + "; allowed: \"scalar\"");
            }
            JsonNode value = n.get("value");
            if (value == null || !value.isNumber() || !Double.isFinite(value.asDouble())) {
                throw new IllegalArgumentException("value " + (value == null ? "is missing" : value + " is not allowed")
                        + "; allowed: a finite number");
            }
            JsonNode time = n.get("time");
            if (time == null) {
                throw new IllegalArgumentException("time is missing; allowed: seconds >= 0 or an RFC 3339 date-time");
            }
            double seconds = Json.seconds(time);
            String unit = "";
            if (n.hasNonNull("unit")) {
                if (!n.get("unit").isTextual()) {
                    throw new IllegalArgumentException("unit " + n.get("unit") + " is not allowed; allowed: a string");
                }
                unit = n.get("unit").asText();
            }
            String refused = UnitRange.refusal(value.asDouble(), unit);
            if (refused != null) {
                throw new IllegalArgumentException(refused);
            }
            boolean hasTest = n.hasNonNull("test") || !defaultTest.isEmpty();
            String test = n.hasNonNull("test") ? n.get("test").asText() : defaultTest;
            String run = n.hasNonNull("run") ? n.get("run").asText() : source;
            Map<String, String> labels = new TreeMap<>();
            JsonNode l = n.get("labels");
            if (l != null && !l.isNull()) {
                if (!l.isObject()) {
                    throw new IllegalArgumentException("labels " + l + " is not allowed; allowed: an object of strings");
                }
                for (Map.Entry<String, JsonNode> e : l.properties()) {
                    if (!e.getValue().isTextual()) {
                        throw new IllegalArgumentException("label " + e.getKey() + " = " + e.getValue()
                                + " is not allowed; allowed: a string");
                    }
                    labels.put(e.getKey(), e.getValue().asText());
                }
            }
            if (n.path("omitted").asBoolean(false)) {
                return;
            }
            SeriesKey key = new SeriesKey(test, name, host, new TreeMap<>(labels));
            read.add(new Pending(new Observation(key, run, value.asDouble(), unit, seconds, source, line), rank, hasTest));
        } catch (IllegalArgumentException e) {
            out.error(new Problem(source, line, name, host, "metric " + name + ": " + e.getMessage()));
        }
    }

    private static void policy(String source, int line, String payload, MetricSet out) {
        JsonNode n;
        try {
            n = Json.readDistinct(payload);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, line, "", "", "malformed ktap-metric-policy-json payload: " + Json.reason(e)));
            return;
        }
        List<String> warnings = new ArrayList<>();
        try {
            out.addPolicy(PolicyParser.parse(n, false, Policy.Source.EMBEDDED, warnings));
        } catch (IllegalArgumentException e) {
            String name = n != null && n.path("name").isTextual() ? n.get("name").asText() : "";
            out.error(new Problem(source, line, name.endsWith("*") ? "" : name, name.isEmpty() || name.endsWith("*") ? "" : "*",
                    e.getMessage()));
        }
        for (String w : warnings) {
            out.warn(new Problem(source, line, "", "", w));
        }
    }

    private static void zperf(String source, int line, String name, String value, List<Pending> read, MetricSet out) {
        try {
            double v = Json.parseNumber(value);
            String unit = name.endsWith("_mbps") ? "Mbit/s" : "";
            String refused = UnitRange.refusal(v, unit);
            if (refused != null) {
                throw new IllegalArgumentException(refused);
            }
            read.add(new Pending(new Observation(SeriesKey.of(name, "local"), source, v, unit, 0, source, line),
                    ZPERF_LINE, false));
        } catch (IllegalArgumentException e) {
            out.error(new Problem(source, line, name, "local", "ZPERF-RESULT " + name + ": " + e.getMessage()));
        }
    }

    private static void jsonLine(String source, int line, String text, List<Pending> read, MetricSet out) {
        boolean looksLikeOurs = text.contains("\"marker\"") || text.contains("\"shape\"")
                || text.contains(RESULT_FORMAT);
        if (!looksLikeOurs) {
            return;
        }
        JsonNode n;
        try {
            n = Json.readDistinct(text);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, line, "", "", "malformed JSON result line: " + Json.reason(e)));
            return;
        }
        if (n == null || !n.isObject()) {
            return;
        }
        if (LinerateResults.isResult(n)) {
            LinerateResults.result(source, line, n, read, out);
        } else if (n.has("marker")) {
            LinerateResults.resultLine(source, line, n, read, out);
        } else if (n.has("shape")) {
            metricNode(source, line, n, RESULT_JSON, read, out);
        }
    }
}
