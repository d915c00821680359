package io.linerate.regression;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.MetricDefaults;
import io.linerate.core.sink.MetricJson;
import io.linerate.regression.internal.InputText;
import io.linerate.regression.internal.Json;
import io.linerate.regression.internal.PolicyParser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the policy of a metric, with the precedence of docs/metrics.md section 3: a reviewed policy
 * file beats policy lines embedded in the current input, which beat the policy the baseline stored
 * with the series, which beats the built-in default. Within one source an exact name beats a
 * {@code prefix*} pattern and a longer prefix beats a shorter one; among equal matches the first
 * read wins.
 *
 * <p>Defaults follow {@link MetricDefaults}: the direction from a bad word in the name, else from
 * the unit; p50 of the samples kept as a distribution, 5 % relative tolerance, the {@code auto} method (the
 * threshold, joined by the Mann-Whitney test once both sides have 5 data points);
 * a loss in percent is judged in percentage points (relative tolerance 0, absolute tolerance
 * {@value MetricDefaults#LOSS_TOLERANCE_PERCENTAGE_POINTS}); jitter, CPU time and one run's extremes
 * and spread ({@link MetricDefaults#isAdvisory}) are advisory. A metric whose
 * direction neither its name nor its unit gives has no default policy.
 */
public final class Policies {
    /** Value of {@code format} in a policy file. */
    public static final String FILE_FORMAT = "linerate-policies";

    private final String fileName;
    private final List<Policy> file;

    private Policies(String fileName, List<Policy> file) {
        this.fileName = fileName;
        this.file = List.copyOf(file);
    }

    /** @return policies without a file: embedded lines and defaults only */
    public static Policies none() {
        return new Policies("", List.of());
    }

    /** @return the given file policies (source should be {@link Policy.Source#FILE}), named {@code policies} in warnings */
    public static Policies of(List<Policy> filePolicies) {
        return new Policies("policies", filePolicies);
    }

    /**
     * Reads a reviewed policy file: either a JSON array of policy objects, or
     * {@code {"format":"linerate-policies","version":1,"policies":[...]}}. Every unknown key, at any
     * level, is an error, so that a typo cannot disable a gate, and so is a
     * {@code relative_tolerance} outside 0 to 1.
     *
     * @param source name of the file, for messages
     * @param content the file's text
     * @return the policies, with source {@link Policy.Source#FILE}
     * @throws IllegalArgumentException naming the file, the policy, the key or value and what is allowed
     */
    public static Policies parseFile(String source, String content) {
        JsonNode root;
        try {
            root = Json.readDistinct(InputText.withoutBom(content));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(Json.unreadable("policy file", source, e));
        }
        JsonNode list = root;
        if (root != null && root.isObject()) {
            for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
                String k = it.next();
                if (!Set.of("format", "version", "policies").contains(k)) {
                    throw new IllegalArgumentException("policy file " + source + ": unknown key " + k
                            + "; allowed: format, version, policies");
                }
            }
            if (!FILE_FORMAT.equals(root.path("format").asText())) {
                throw new IllegalArgumentException("policy file " + source + ": format " + root.path("format")
                        + " is not allowed; allowed: \"" + FILE_FORMAT + "\"");
            }
            if (root.path("version").asInt(-1) != 1 || !root.path("version").isInt()) {
                throw new IllegalArgumentException("policy file " + source + " has version " + root.path("version")
                        + "; this linerate reads version 1");
            }
            list = root.get("policies");
        }
        if (list == null || !list.isArray()) {
            throw new IllegalArgumentException("policy file " + source + ": expected a JSON array of policies or an object with \"policies\"");
        }
        List<Policy> out = new ArrayList<>();
        int i = 0;
        for (JsonNode p : list) {
            try {
                out.add(PolicyParser.parse(p, true, Policy.Source.FILE, new ArrayList<>()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("policy file " + source + ", policy #" + (i + 1) + ": " + e.getMessage());
            }
            i++;
        }
        return new Policies(source, out);
    }

    /** @return the file policies */
    public List<Policy> filePolicies() {
        return file;
    }

    /** @return the name of the policy file, for messages; empty without one */
    public String fileName() {
        return fileName;
    }

    /**
     * @param metricNames the names of every metric gated (current and baselined)
     * @return the file policies that match none of them, in file order
     */
    public List<Policy> unmatched(Collection<String> metricNames) {
        List<Policy> out = new ArrayList<>();
        for (Policy p : file) {
            if (metricNames.stream().noneMatch(p::matches)) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * @param metricName the metric's name
     * @param unit the metric's unit; empty when unknown
     * @param embedded policies embedded in the current inputs, in reading order
     * @param stored the policy the baseline stored with this series; null when none
     * @return the policy that applies, or empty when no source has one
     */
    public Optional<Policy> resolve(String metricName, String unit, List<Policy> embedded, Policy stored) {
        Optional<Policy> p = best(file, metricName);
        if (p.isEmpty()) {
            p = best(embedded, metricName);
        }
        if (p.isEmpty()) {
            p = Optional.ofNullable(stored);
        }
        if (p.isEmpty()) {
            p = defaultFor(metricName, unit);
        }
        return p;
    }

    /**
     * @param metricName the metric's name
     * @param unit its unit; empty when unknown
     * @return the built-in default policy, empty when neither the name nor the unit gives a direction
     */
    public static Optional<Policy> defaultFor(String metricName, String unit) {
        return MetricDefaults.direction(metricName, unit).map(b -> PolicyParser.parse(
                Json.tree(MetricJson.defaultPolicy(metricName, unit == null ? "" : unit, b, MetricDefaults.isAdvisory(metricName))),
                true, Policy.Source.DEFAULT, new ArrayList<>()));
    }

    private static Optional<Policy> best(List<Policy> policies, String metricName) {
        Policy best = null;
        int bestScore = -1;
        for (Policy p : policies) {
            if (!p.matches(metricName)) {
                continue;
            }
            int score = p.name().endsWith("*") ? p.name().length() - 1 : Integer.MAX_VALUE;
            if (score > bestScore) {
                best = p;
                bestScore = score;
            }
        }
        return Optional.ofNullable(best);
    }
}
