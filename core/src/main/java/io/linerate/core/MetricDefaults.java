package io.linerate.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The built-in default direction and policy of a metric (docs/metrics.md section 3), in one place for
 * the sinks that write policy lines and for the gate that judges metrics without one.
 *
 * <p>Direction, in this order:
 * <ol>
 * <li>A name word that means something bad makes the metric lower-better: {@code loss},
 * {@code lost}, {@code drop}, {@code error}, {@code retrans}, {@code jitter}, {@code latency}
 * (and {@code latencies}), {@code rtt}, {@code delay}. A word matches when it starts with one of
 * these, so {@code errors}, {@code dropped} and {@code retransmits} match too.</li>
 * <li>Otherwise the unit: throughput units are higher-better ({@code bit/s} with an SI or IEC
 * prefix such as {@code Mbit/s} or {@code Kibit/s}, {@code bits/s}, {@code bps}, {@code Mbps},
 * {@code B/s} and {@code MB/s}, {@code byte/s}, and {@code frames/s}, {@code packets/s},
 * {@code datagrams/s}, {@code messages/s}, {@code transactions/s}, {@code requests/s},
 * {@code ops/s}, {@code pps}); time units ({@code ns}, {@code us}, {@code µs}, {@code ms},
 * {@code s}, {@code sec}, {@code min}), {@code %}, and costs per amount of data (a time unit,
 * {@code instructions} or {@code cycles} per {@code B}, {@code byte}, {@code KB}, {@code KiB},
 * {@code MB}, {@code MiB}, {@code packet}, {@code frame} or {@code message}, such as
 * {@code us/KiB}, netperf's service demand) are lower-better. Units are compared without
 * regard to case and surrounding blanks; {@code /sec} is read as {@code /s}.</li>
 * <li>Otherwise the direction is unknown, and a metric gets no pass/fail verdict without a
 * policy.</li>
 * </ol>
 * Words: the name is split at {@code _ . : / -} and where a lower-case letter or digit is followed
 * by an upper-case letter ({@code rxDropRate} is {@code rx}, {@code drop}, {@code rate}); words
 * are compared in lower case. So {@code tcp_retrans_rate} and {@code drop_rate} (in frames/s) are
 * lower-better, while a bad word inside another word does not count ({@code gloss_mbps} in
 * Mbit/s is higher-better).
 *
 * <p>Default policy: p50 of the samples kept as a distribution, 5 % relative tolerance
 * ({@link #RELATIVE_TOLERANCE}), no method named (so the gate's default, {@code auto}); except that
 * <ul>
 * <li>a loss in percent (a name word {@code loss}, {@code lost} or {@code drop} and the unit
 * {@code %}) is judged in percentage points: relative tolerance 0 and absolute tolerance
 * {@link #LOSS_TOLERANCE_PERCENTAGE_POINTS}, so that 0 % to 0.1 % is within it while 0 % to 50 %
 * regresses;</li>
 * <li>jitter (a name word {@code jitter}) is advisory: reported, never failing, because the RFC
 * 3550 estimator follows scheduling noise of the host;</li>
 * <li>CPU time (a name word {@code cpu}, such as service demand) is advisory too: one run's CPU
 * time per byte moves by 10 % and more with what else the host runs.</li>
 * <li>a spread of one run's samples (a name word {@code stddev} or {@code stdev}) and an extreme of
 * one run's latencies (a name word {@code max}, {@code maximum}, {@code min}, {@code minimum} or
 * {@code p100} in a latency, RTT or delay: ping-pong's {@code latency_max}, {@code latency_min};
 * not a throughput named {@code max_throughput_mbps}, which gates) is advisory:
 * one preempted or one lucky round trip sets it, so two identical runs differ by a factor; kperf's
 * policies give such figures no regression key either. The mean and the percentiles below 100
 * gate.</li>
 * <li>a count of retransmitted TCP segments (a name word {@code retrans}, such as
 * {@code tcp4_retransmits}, and the unit {@value #SEGMENTS}) has kperf's policy
 * {@code {"name":...,"summarize":"max"}}: no {@code regression} key, so it only reports.</li>
 * </ul>
 */
public final class MetricDefaults {
    /** Unit of a count of TCP segments, such as retransmits. */
    public static final String SEGMENTS = "segments";
    /** Relative tolerance of default policies: 5 %. */
    public static final double RELATIVE_TOLERANCE = 0.05;
    /** Absolute tolerance of a loss in percent, in percentage points: 1. */
    public static final double LOSS_TOLERANCE_PERCENTAGE_POINTS = 1.0;

    private static final List<String> BAD = List.of("loss", "lost", "drop", "error", "retrans", "jitter", "latenc", "rtt",
            "delay");
    private static final List<String> LOSS = List.of("loss", "lost", "drop");
    /** Name words of an extreme or a spread of one run's samples: not a regression signal alone. */
    private static final Set<String> ONE_RUN_SPREAD = Set.of("stddev", "stdev");
    /** Name words of an extreme of one run's samples: not a regression signal alone for a latency. */
    private static final Set<String> ONE_RUN_EXTREME = Set.of("max", "maximum", "min", "minimum", "p100");
    private static final List<String> LATENCY = List.of("latenc", "rtt", "delay");
    private static final Pattern SPLIT = Pattern.compile("[_.:/-]+|(?<=[a-z0-9])(?=[A-Z])");
    private static final Pattern THROUGHPUT = Pattern.compile(
            "(?:(?:[kmgtpe]i?)?(?:bits?|b|bytes?)|frames?|packets?|pkts|datagrams?|messages?|msgs|transactions?"
                    + "|requests?|ops)/s|[kmgt]?bps|pps");
    private static final List<String> TIME = List.of("ns", "us", "\u00b5s", "\u03bcs", "ms", "s", "sec", "min");
    private static final Pattern COST = Pattern.compile(
            "(?:ns|us|\u00b5s|\u03bcs|ms|s|instructions?|insns?|cycles?)/(?:b|bytes?|[km]i?b|packets?|frames?|messages?)");

    private MetricDefaults() {}

    /**
     * @param name a metric name
     * @return its words in lower case, in order, as split by the rule in the class description
     */
    public static List<String> words(String name) {
        List<String> out = new ArrayList<>();
        for (String w : SPLIT.split(name)) {
            if (!w.isEmpty()) {
                out.add(w.toLowerCase(Locale.ROOT));
            }
        }
        return out;
    }

    /**
     * @param name the metric's name
     * @param unit its unit; empty or null when unknown
     * @return the default direction, or empty when neither a name word nor the unit says one
     */
    public static Optional<Better> direction(String name, String unit) {
        if (hasWord(name, BAD)) {
            return Optional.of(Better.LOWER);
        }
        String u = unit == null ? "" : unit.strip().toLowerCase(Locale.ROOT).replace("/sec", "/s");
        if (THROUGHPUT.matcher(u).matches()) {
            return Optional.of(Better.HIGHER);
        }
        if (u.equals("%") || TIME.contains(u) || COST.matcher(u).matches()) {
            return Optional.of(Better.LOWER);
        }
        return Optional.empty();
    }

    /** @return whether the metric is a loss in percent, judged in percentage points by default */
    public static boolean isLossPercent(String name, String unit) {
        return unit != null && unit.strip().equals("%") && hasWord(name, LOSS);
    }

    /**
     * @return whether the metric's default policy is advisory (jitter, CPU time, an extreme or a
     *     spread of one run's samples), by the rule in the class description
     */
    public static boolean isAdvisory(String name) {
        List<String> words = words(name);
        return hasWord(name, List.of("jitter")) || words.contains("cpu") || words.stream().anyMatch(ONE_RUN_SPREAD::contains)
                || hasWord(name, LATENCY) && words.stream().anyMatch(ONE_RUN_EXTREME::contains);
    }

    /**
     * @return whether the metric counts retransmitted TCP segments, whose default policy is kperf's
     *     report-only {@code {"name":...,"summarize":"max"}} (class description)
     */
    public static boolean isRetransmitCount(String name, String unit) {
        return unit != null && unit.strip().equalsIgnoreCase(SEGMENTS) && hasWord(name, List.of("retrans"));
    }

    private static boolean hasWord(String name, List<String> stems) {
        for (String w : words(name)) {
            for (String s : stems) {
                if (w.startsWith(s)) {
                    return true;
                }
            }
        }
        return false;
    }
}
