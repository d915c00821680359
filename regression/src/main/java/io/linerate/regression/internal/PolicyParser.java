package io.linerate.regression.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Better;
import io.linerate.regression.Compare;
import io.linerate.regression.Policy;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** Turns a policy object (docs/metrics.md section 3) into a {@link Policy}, validating every field. */
public final class PolicyParser {
    private static final Set<String> TOP = Set.of("name", "regression", "summarize", "relative_tolerance",
            "absolute_tolerance", "method", "alpha", "min_runs", "omit_first_s", "omit_last_s", "on_missing",
            "on_skip", "advisory");
    private static final Set<String> REGRESSION = Set.of("better", "compare", "relative_tolerance",
            "absolute_tolerance");

    private PolicyParser() {}

    /**
     * @param n the policy object
     * @param strict whether an unknown key is an error (policy file) rather than a warning
     * @param source where the policy came from
     * @param warnings receives one message per unknown key when not strict
     * @return the policy
     * @throws IllegalArgumentException naming the field, the value and what is allowed
     */
    public static Policy parse(JsonNode n, boolean strict, Policy.Source source, List<String> warnings) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("a policy must be a JSON object");
        }
        String name = text(n, "name", null);
        if (name == null || !name.matches("[A-Za-z0-9_.:/-]+\\*?|\\*")) {
            throw new IllegalArgumentException("policy name " + (name == null ? "is missing" : "'" + name + "' is not allowed")
                    + "; allowed: [A-Za-z0-9_.:/-]+ with an optional trailing *");
        }
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!TOP.contains(k)) {
                unknown.add(k);
            }
        }
        JsonNode r = n.get("regression");
        if (r == null || !r.isObject()) {
            throw new IllegalArgumentException("policy " + name + ": 'regression' object is missing"
                    + (unknown.isEmpty() ? "" : "; unknown key" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)));
        }
        for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!REGRESSION.contains(k)) {
                unknown.add("regression." + k);
            }
        }
        if (!unknown.isEmpty()) {
            String msg = "policy " + name + ": unknown key" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + "; allowed: " + String.join(", ", new java.util.TreeSet<>(TOP)) + " and regression."
                    + String.join(", regression.", new java.util.TreeSet<>(REGRESSION));
            if (strict) {
                throw new IllegalArgumentException(msg);
            }
            warnings.add(msg);
        }
        String betterText = text(r, "better", name);
        Better better;
        if ("higher".equals(betterText)) {
            better = Better.HIGHER;
        } else if ("lower".equals(betterText)) {
            better = Better.LOWER;
        } else {
            throw new IllegalArgumentException("policy " + name + ": regression.better " + describe(betterText)
                    + " is not allowed; allowed: higher, lower");
        }
        String compareText = text(r, "compare", name);
        if (compareText == null) {
            throw new IllegalArgumentException("policy " + name + ": regression.compare is missing");
        }
        Compare compare;
        try {
            compare = Compare.parse(compareText);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("policy " + name + ": " + e.getMessage());
        }
        JsonNode tolNode = r.has("relative_tolerance") ? r.get("relative_tolerance") : n.get("relative_tolerance");
        if (tolNode == null) {
            throw new IllegalArgumentException("policy " + name + ": regression.relative_tolerance is missing");
        }
        double tol;
        if (strict) {
            tol = number(tolNode, name, "relative_tolerance", 0, 1, "0 to 1 (a fraction: 0.05 = 5%)");
        } else {
            tol = number(tolNode, name, "relative_tolerance", 0, Double.MAX_VALUE, "a number >= 0");
            if (tol > 1) {
                warnings.add("policy " + name + ": relative_tolerance " + tolNode + " is outside 0 to 1 (a fraction:"
                        + " 0.05 = 5%), so it lets the metric worsen by " + Fmt.percent(tol) + " before it regresses");
            }
        }
        String summarizeText = text(n, "summarize", name);
        Policy.Summarize summarize = enumValue(Policy.Summarize.class, summarizeText, name, "summarize",
                "distribution, max, min, mean, last, sum");
        JsonNode absNode = n.has("absolute_tolerance") ? n.get("absolute_tolerance") : r.get("absolute_tolerance");
        double abs = absNode == null ? 0 : number(absNode, name, "absolute_tolerance", 0, Double.MAX_VALUE, "a number >= 0");
        Policy.Method method = n.has("method")
                ? enumValue(Policy.Method.class, text(n, "method", name), name, "method", "auto, threshold, mann_whitney, bootstrap")
                : Policy.Method.AUTO;
        double alpha = n.has("alpha") ? number(n.get("alpha"), name, "alpha", Double.MIN_VALUE, Math.nextDown(1.0),
                "0 < alpha < 1") : Policy.DEFAULT_ALPHA;
        if (alpha <= 0) {
            throw new IllegalArgumentException("policy " + name + ": alpha " + alpha + " is not allowed; allowed: 0 < alpha < 1");
        }
        int minRuns;
        if (n.has("min_runs")) {
            JsonNode m = n.get("min_runs");
            if (!m.canConvertToInt() || !m.isIntegralNumber() || m.asInt() < 1) {
                throw new IllegalArgumentException("policy " + name + ": min_runs " + m + " is not allowed; allowed: an integer >= 1");
            }
            minRuns = m.asInt();
            if (method == Policy.Method.MANN_WHITNEY) {
                double smallest = MannWhitney.smallestPValue(minRuns, minRuns);
                if (smallest >= alpha) {
                    throw new IllegalArgumentException(String.format(Locale.ROOT,
                            "policy %s: min_runs %d can never reach alpha %s with the exact one-sided Mann-Whitney test"
                                    + " (smallest p-value with %d runs per side is %.4g); allowed: min_runs >= %d",
                            name, minRuns, Fmt.num(alpha), minRuns, smallest, MannWhitney.minRunsFor(alpha)));
                }
            }
        } else {
            minRuns = switch (method) {
                case AUTO, THRESHOLD -> 1;
                case MANN_WHITNEY -> MannWhitney.minRunsFor(alpha);
                case BOOTSTRAP -> 2;
            };
        }
        double omitFirst = n.has("omit_first_s") ? number(n.get("omit_first_s"), name, "omit_first_s", 0, Double.MAX_VALUE, "a number >= 0") : 0;
        double omitLast = n.has("omit_last_s") ? number(n.get("omit_last_s"), name, "omit_last_s", 0, Double.MAX_VALUE, "a number >= 0") : 0;
        Policy.OnMissing onMissing = n.has("on_missing")
                ? enumValue(Policy.OnMissing.class, text(n, "on_missing", name), name, "on_missing", "fail, skip")
                : Policy.OnMissing.FAIL;
        Policy.OnSkip onSkip = n.has("on_skip")
                ? enumValue(Policy.OnSkip.class, text(n, "on_skip", name), name, "on_skip", "skip, fail")
                : Policy.OnSkip.SKIP;
        boolean advisory = false;
        if (n.has("advisory")) {
            if (!n.get("advisory").isBoolean()) {
                throw new IllegalArgumentException("policy " + name + ": advisory " + n.get("advisory") + " is not allowed; allowed: true, false");
            }
            advisory = n.get("advisory").asBoolean();
        }
        return new Policy(name, better, compare, tol, summarize, abs, method, alpha, minRuns, omitFirst, omitLast,
                onMissing, onSkip, advisory, source);
    }

    /**
     * @param p a policy
     * @return {@code p} as a policy object of docs/metrics.md section 3 with every field written
     *     explicitly, which {@link #parse} reads back into an equal policy (but for its source)
     */
    public static ObjectNode toJson(Policy p) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("name", p.name());
        ObjectNode r = n.putObject("regression");
        r.put("better", p.better().label());
        r.put("compare", p.compare().label());
        r.put("relative_tolerance", p.relativeTolerance());
        n.put("summarize", p.summarize().label());
        n.put("absolute_tolerance", p.absoluteTolerance());
        n.put("method", p.method().label());
        n.put("alpha", p.alpha());
        n.put("min_runs", p.minRuns());
        n.put("omit_first_s", p.omitFirstSeconds());
        n.put("omit_last_s", p.omitLastSeconds());
        n.put("on_missing", p.onMissing().label());
        n.put("on_skip", p.onSkip().label());
        n.put("advisory", p.advisory());
        return n;
    }

    private static String text(JsonNode n, String field, String policy) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            if (policy != null) {
                throw new IllegalArgumentException("policy " + policy + ": " + field + " is missing");
            }
            return null;
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException((policy == null ? "policy" : "policy " + policy) + ": " + field + " " + v
                    + " is not allowed; allowed: a string");
        }
        return v.asText();
    }

    private static String describe(String s) {
        return s == null ? "(missing)" : "'" + s + "'";
    }

    private static double number(JsonNode v, String policy, String field, double min, double max, String allowed) {
        if (!v.isNumber() || !Double.isFinite(v.asDouble()) || v.asDouble() < min || v.asDouble() > max) {
            throw new IllegalArgumentException("policy " + policy + ": " + field + " " + v + " is not allowed; allowed: " + allowed);
        }
        return v.asDouble();
    }

    private static <E extends Enum<E>> E enumValue(Class<E> type, String text, String policy, String field, String allowed) {
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(text)) {
                return e;
            }
        }
        throw new IllegalArgumentException("policy " + policy + ": " + field + " '" + text + "' is not allowed; allowed: " + allowed);
    }
}
