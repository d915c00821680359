package io.linerate.regression;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Better;
import io.linerate.core.sink.MetricJson;
import io.linerate.regression.internal.PolicyParser;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Finds the policy of a metric, with the precedence of docs/metrics.md section 3: a reviewed policy
 * file beats policy lines embedded in an input, which beat the built-in defaults. Within one source
 * an exact name beats a {@code prefix*} pattern and a longer prefix beats a shorter one; among
 * equal matches the first read wins.
 *
 * <p>Defaults, chosen by name (case-insensitive): names containing {@code latency}, {@code rtt},
 * {@code jitter}, {@code lost}, {@code loss}, {@code _ns} or {@code _ms} are lower-better; otherwise
 * names containing {@code throughput}, {@code mbps}, {@code bps} or {@code rate} are higher-better;
 * both with {@code p50}, 5 % relative tolerance, {@code distribution}, the {@code auto} method
 * (the threshold, joined by the Mann-Whitney test once both sides have 5 data points). Other
 * names have no default policy.
 */
public final class Policies {
    /** Value of {@code format} in a policy file. */
    public static final String FILE_FORMAT = "linerate-policies";
    private static final List<String> LOWER = List.of("latency", "rtt", "jitter", "lost", "loss", "_ns", "_ms");
    private static final List<String> HIGHER = List.of("throughput", "mbps", "bps", "rate");

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
            root = MetricJson.MAPPER.readTree(content);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("policy file " + source + " is not valid JSON: " + e.getOriginalMessage());
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
     * @param embedded policies embedded in the inputs, in reading order
     * @return the policy that applies, or empty when no source has one
     */
    public Optional<Policy> resolve(String metricName, List<Policy> embedded) {
        Optional<Policy> p = best(file, metricName);
        if (p.isEmpty()) {
            p = best(embedded, metricName);
        }
        if (p.isEmpty()) {
            p = defaultFor(metricName);
        }
        return p;
    }

    /** @return the built-in default policy for {@code metricName}, empty when its name says no direction */
    public static Optional<Policy> defaultFor(String metricName) {
        String n = metricName.toLowerCase(Locale.ROOT);
        Better better = null;
        if (LOWER.stream().anyMatch(n::contains)) {
            better = Better.LOWER;
        } else if (HIGHER.stream().anyMatch(n::contains)) {
            better = Better.HIGHER;
        }
        if (better == null) {
            return Optional.empty();
        }
        return Optional.of(new Policy(metricName, better, Compare.parse("p50"), MetricJson.DEFAULT_RELATIVE_TOLERANCE,
                Policy.Summarize.DISTRIBUTION, 0, Policy.Method.AUTO, Policy.DEFAULT_ALPHA, 1, 0, 0,
                Policy.OnMissing.FAIL, false, Policy.Source.DEFAULT));
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
