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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Turns a policy object (docs/metrics.md section 3) into a {@link Policy}, validating every field. */
public final class PolicyParser {
    private static final Set<String> TOP = Set.of("name", "regression", "summarize", "relative_tolerance",
            "absolute_tolerance", "method", "alpha", "min_runs", "omit_first_s", "omit_last_s", "on_missing",
            "on_skip", "advisory");
    private static final Set<String> REGRESSION = Set.of("better", "compare", "relative_tolerance",
            "absolute_tolerance");

    private static final String ALLOWED = "allowed: " + String.join(", ", new TreeSet<>(TOP)) + " and regression."
            + String.join(", regression.", new TreeSet<>(REGRESSION));

    private PolicyParser() {}

    /**
     * Reads one policy. A policy without {@code regression} only reports its metric (advisory, as
     * kperf's {@code {"name":"tcp.retransmits","summarize":"max"}}); beside it, an unknown key,
     * a tolerance or {@code "advisory":false} is an error in every source, so that a misspelt
     * {@code regression} cannot turn a gate into a report.
     *
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
        String name = name(n);
        JsonNode r = n.get("regression");
        List<String> unknown = unknownKeys(n, r);
        if (r == null) {
            reportOnly(n, name, unknown);
        } else if (!r.isObject()) {
            throw new IllegalArgumentException("policy " + name + ": regression " + r + " is not allowed; allowed: an "
                    + "object with better, compare and relative_tolerance, or no regression for a policy that only reports");
        }
        if (!unknown.isEmpty()) {
            String msg = "policy " + name + ": unknown key" + (unknown.size() > 1 ? "s " : " ") + String.join(", ", unknown)
                    + "; " + ALLOWED;
            if (strict) {
                throw new IllegalArgumentException(msg);
            }
            warnings.add(msg);
        }
        Optional<Policy.Regression> regression = r == null ? Optional.empty() : Optional.of(regression(n, r, name, strict, warnings));
        Policy.Summarize summarize = enumValue(Policy.Summarize.class, text(n, "summarize", name), name, "summarize",
                "distribution, max, min, mean, last, sum");
        JsonNode absNode = n.has("absolute_tolerance") ? n.get("absolute_tolerance") : r == null ? null : r.get("absolute_tolerance");
        double abs = absNode == null ? 0 : number(absNode, name, "absolute_tolerance", 0, Double.MAX_VALUE, "a number >= 0");
        Policy.Method method = n.has("method")
                ? enumValue(Policy.Method.class, text(n, "method", name), name, "method", "auto, threshold, mann_whitney, bootstrap")
                : Policy.Method.AUTO;
        double alpha = n.has("alpha") ? number(n.get("alpha"), name, "alpha", Double.MIN_VALUE, Math.nextDown(1.0),
                "0 < alpha < 1") : Policy.DEFAULT_ALPHA;
        if (alpha <= 0) {
            throw new IllegalArgumentException("policy " + name + ": alpha " + alpha + " is not allowed; allowed: 0 < alpha < 1");
        }
        int minRuns = minRuns(n, name, method, alpha);
        double omitFirst = n.has("omit_first_s") ? number(n.get("omit_first_s"), name, "omit_first_s", 0, Double.MAX_VALUE, "a number >= 0") : 0;
        double omitLast = n.has("omit_last_s") ? number(n.get("omit_last_s"), name, "omit_last_s", 0, Double.MAX_VALUE, "a number >= 0") : 0;
        Policy.OnMissing onMissing = n.has("on_missing")
                ? enumValue(Policy.OnMissing.class, text(n, "on_missing", name), name, "on_missing", "fail, skip")
                : Policy.OnMissing.FAIL;
        Policy.OnSkip onSkip = n.has("on_skip")
                ? enumValue(Policy.OnSkip.class, text(n, "on_skip", name), name, "on_skip", "skip, fail")
                : Policy.OnSkip.SKIP;
        boolean advisory = advisory(n, name) || regression.isEmpty();
        return new Policy(name, regression, summarize, abs, method, alpha, minRuns, omitFirst, omitLast, onMissing, onSkip,
                advisory, source);
    }

    private static String name(JsonNode n) {
        String name = text(n, "name", null);
        if (name == null || !name.matches("[A-Za-z0-9_.:/-]+\\*?|\\*")) {
            throw new IllegalArgumentException("policy name " + (name == null ? "is missing" : "'" + name + "' is not allowed")
                    + "; allowed: [A-Za-z0-9_.:/-]+ with an optional trailing *");
        }
        return name;
    }

    /** @return the keys of {@code n} and of its {@code regression} object {@code r} (if any) that policies do not have */
    private static List<String> unknownKeys(JsonNode n, JsonNode r) {
        List<String> unknown = new ArrayList<>();
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!TOP.contains(k)) {
                unknown.add(k);
            }
        }
        if (r != null && r.isObject()) {
            for (Iterator<String> it = r.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!REGRESSION.contains(k)) {
                    unknown.add("regression." + k);
                }
            }
        }
        return unknown;
    }

    /**
     * Refuses what only a regression rule uses, beside a policy that has none: an unknown key (a
     * misspelt {@code regression}), a tolerance, or {@code "advisory":false}.
     */
    private static void reportOnly(JsonNode n, String name, List<String> unknown) {
        String without = "policy " + name + ": 'regression' object is missing";
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException(without + "; unknown key" + (unknown.size() > 1 ? "s " : " ")
                    + String.join(", ", unknown) + ": beside a policy without 'regression', which only reports, an unknown "
                    + "key is refused, so that a misspelt 'regression' cannot turn a gate into a report; " + ALLOWED);
        }
        for (String k : List.of("relative_tolerance", "absolute_tolerance")) {
            if (n.has(k)) {
                throw new IllegalArgumentException(without + ", so " + k + " " + n.get(k) + " judges nothing; allowed: "
                        + k + " with a 'regression' object (better, compare), or neither for a policy that only reports");
            }
        }
        if (n.has("advisory") && n.get("advisory").isBoolean() && !n.get("advisory").asBoolean()) {
            throw new IllegalArgumentException(without + ", so it only reports and cannot fail the gate as advisory "
                    + "false asks; allowed: advisory true, or a 'regression' object (better, compare, relative_tolerance)");
        }
    }

    /** @return the policy's {@code regression} object {@code r}, with a {@code relative_tolerance} one level up */
    private static Policy.Regression regression(JsonNode n, JsonNode r, String name, boolean strict, List<String> warnings) {
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
        return new Policy.Regression(better, compare, tol);
    }

    /** @return {@code min_runs}, or the method's own default; refuses one with which the method can never reach alpha */
    private static int minRuns(JsonNode n, String name, Policy.Method method, double alpha) {
        if (!n.has("min_runs")) {
            return switch (method) {
                case AUTO, THRESHOLD -> 1;
                case MANN_WHITNEY -> MannWhitney.minRunsFor(alpha);
                case BOOTSTRAP -> 2;
            };
        }
        JsonNode m = n.get("min_runs");
        if (!m.canConvertToInt() || !m.isIntegralNumber() || m.asInt() < 1) {
            throw new IllegalArgumentException("policy " + name + ": min_runs " + m + " is not allowed; allowed: an integer >= 1");
        }
        int minRuns = m.asInt();
        if (method == Policy.Method.MANN_WHITNEY) {
            double smallest = MannWhitney.smallestPValue(minRuns, minRuns);
            if (smallest >= alpha) {
                throw new IllegalArgumentException(String.format(Locale.ROOT,
                        "policy %s: min_runs %d can never reach alpha %s with the exact one-sided Mann-Whitney test"
                                + " (smallest p-value with %d runs per side is %.4g); allowed: min_runs >= %d",
                        name, minRuns, Fmt.num(alpha), minRuns, smallest, MannWhitney.minRunsFor(alpha)));
            }
        }
        return minRuns;
    }

    private static boolean advisory(JsonNode n, String name) {
        if (!n.has("advisory")) {
            return false;
        }
        if (!n.get("advisory").isBoolean()) {
            throw new IllegalArgumentException("policy " + name + ": advisory " + n.get("advisory") + " is not allowed; allowed: true, false");
        }
        return n.get("advisory").asBoolean();
    }

    /**
     * @param p a policy
     * @return {@code p} as a policy object of docs/metrics.md section 3 with every field written
     *     explicitly (but {@code regression} and {@code absolute_tolerance} for a policy that only
     *     reports), which {@link #parse} reads back into an equal policy (but for its source)
     */
    public static ObjectNode toJson(Policy p) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("name", p.name());
        p.regression().ifPresent(x -> n.putObject("regression").put("better", x.better().label())
                .put("compare", x.compare().label()).put("relative_tolerance", x.relativeTolerance()));
        n.put("summarize", p.summarize().label());
        if (p.regression().isPresent()) {
            n.put("absolute_tolerance", p.absoluteTolerance());
        }
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
