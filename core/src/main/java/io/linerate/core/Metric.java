package io.linerate.core;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * One named, unit-bearing observation, as a ktap metric line carries it (docs/metrics.md section 2).
 *
 * @param name metric id, {@code [A-Za-z0-9_.:/-]+}
 * @param value a finite number
 * @param unit unit of {@code value}, such as {@code Mbit/s} or {@code ns}; empty when unitless
 * @param host {@code local}, {@code remote} or a host name
 * @param timeSeconds seconds since the start of the run, at least 0
 * @param labels extra dimensions of the series (message size, streams), sorted by key
 * @param better which direction is an improvement, for the policy written beside it; linerate's
 *     own metrics state the direction {@link MetricDefaults#direction} gives their name and unit
 * @param advisory whether a regression of this metric is only reported, never fails a gate (for
 *     figures that are noise under common conditions, such as UDP jitter on a busy host)
 */
public record Metric(String name, double value, String unit, String host, double timeSeconds,
                     Map<String, String> labels, Better better, boolean advisory) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:/-]+");
    /** The only shape linerate writes: one observation. */
    public static final String SHAPE_SCALAR = "scalar";
    /** Host of metrics measured by this process. */
    public static final String LOCAL = "local";

    /** @throws IllegalArgumentException for a bad name, a non-finite value or a negative time */
    public Metric {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(better, "better");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("metric name '" + name + "' is not allowed; allowed characters: A-Z a-z 0-9 _ . : / -");
        }
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("metric " + name + " has value " + value + "; allowed: a finite number");
        }
        if (!(timeSeconds >= 0) || !Double.isFinite(timeSeconds)) {
            throw new IllegalArgumentException("metric " + name + " has time " + timeSeconds + " s; allowed: >= 0");
        }
        labels = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(labels == null ? Map.of() : labels));
    }

    /** A gating (not advisory) metric; see the canonical constructor. */
    public Metric(String name, double value, String unit, String host, double timeSeconds,
                  Map<String, String> labels, Better better) {
        this(name, value, unit, host, timeSeconds, labels, better, false);
    }

    /** @return this metric, marked advisory */
    public Metric asAdvisory() {
        return new Metric(name, value, unit, host, timeSeconds, labels, better, true);
    }

    /** A local metric without labels. */
    public static Metric of(String name, double value, String unit, double timeSeconds, Better better) {
        return new Metric(name, value, unit, LOCAL, timeSeconds, Map.of(), better);
    }
}
