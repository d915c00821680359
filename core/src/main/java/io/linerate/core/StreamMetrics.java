package io.linerate.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The names of a stream's quantities, one per quantity on every road (docs/metrics.md, "One key per
 * quantity"): a transfer in one JVM, through the agent, through linerate's iperf3 or iperf 2 client,
 * or read by the gate from iperf3's {@code -J} output. A stream's metrics belong to the KTAP test
 * named by its marker ({@link TransferSpec#testName()}); the name is the marker and the quantity:
 * <ul>
 * <li>{@code <marker>_mbps}: the receiver's goodput, Mbit/s, with host the receiver's;</li>
 * <li>{@code <marker>_sent_mbps}: the sender's throughput, Mbit/s, with host the sender's, where the
 *     two ends count apart (a far end, or another tool's output);</li>
 * <li>{@code <marker>_lost_pct}, {@code <marker>_jitter_ms} (RFC 3550): the receiver's UDP figures;</li>
 * <li>{@code <marker>_cpu_us_per_kb}: service demand, CPU µs per KiB (netperf's unit).</li>
 * </ul>
 * A run with a far end labels every metric {@value #DIRECTION} = {@value #FORWARD} (this host sends)
 * or {@value #REVERSE} (the far end sends), also when it runs one direction only, so that a
 * bidirectional run's halves and one-way runs share their keys. A run of N &gt; 1 parallel streams
 * labels its sums {@value #STREAM} = {@value #SUM} and {@value #STREAMS} = N, its streams' own
 * figures {@value #STREAM} = their index.
 */
public final class StreamMetrics {
    /** Label that says which way the data went. */
    public static final String DIRECTION = "direction";
    /** {@link #DIRECTION} of data from this host (iperf3's client) to the far end. */
    public static final String FORWARD = "forward";
    /** {@link #DIRECTION} of data from the far end to this host (iperf3's {@code -R}). */
    public static final String REVERSE = "reverse";
    /** Label of one of N parallel streams ({@code 0} to {@code N-1}), or {@value #SUM} for their sum. */
    public static final String STREAM = "stream";
    /** {@link #STREAM} of the sum over parallel streams. */
    public static final String SUM = "sum";
    /** Label of a run of N &gt; 1 parallel streams (iperf3's {@code -P N}): N. */
    public static final String STREAMS = "streams";
    /** Host of figures counted at the far end and reported back. */
    public static final String REMOTE = "remote";
    /** Unit of the rates. */
    public static final String MBPS = "Mbit/s";

    private StreamMetrics() {}

    /** @return {@code <marker>_mbps}, the receiver's goodput */
    public static String goodput(String marker) {
        return marker + "_mbps";
    }

    /** @return {@code <marker>_sent_mbps}, the sender's throughput */
    public static String sent(String marker) {
        return marker + "_sent_mbps";
    }

    /**
     * @return {@code <marker>_retransmits}, the TCP segments the sender retransmitted in the measured
     *     window ({@code tcpi_total_retrans}), unit {@link MetricDefaults#SEGMENTS}
     */
    public static String retransmits(String marker) {
        return marker + "_retransmits";
    }

    /** @return {@code <marker>_lost_pct}, the receiver's UDP loss in % */
    public static String lost(String marker) {
        return marker + "_lost_pct";
    }

    /** @return {@code <marker>_jitter_ms}, the receiver's RFC 3550 jitter in ms */
    public static String jitter(String marker) {
        return marker + "_jitter_ms";
    }

    /** @return {@code <marker>_cpu_us_per_kb}, service demand in µs per KiB */
    public static String cpu(String marker) {
        return marker + "_cpu_us_per_kb";
    }

    /**
     * @param protocol {@code tcp} or {@code udp}
     * @param ipv6 whether the family is IPv6
     * @return the marker, such as {@code tcp4}
     */
    public static String marker(String protocol, boolean ipv6) {
        return protocol + (ipv6 ? "6" : "4");
    }

    /** @return {@link #FORWARD} when this host sends, else {@link #REVERSE} */
    public static String direction(boolean thisHostSends) {
        return thisHostSends ? FORWARD : REVERSE;
    }

    /** @return {@link Metric#LOCAL} when {@code here}, else {@link #REMOTE} */
    public static String host(boolean here) {
        return here ? Metric.LOCAL : REMOTE;
    }

    /**
     * @return {@code metrics}, each with the label {@code key} = {@code value} added (replacing one
     *     of that key)
     */
    public static List<Metric> labelled(List<Metric> metrics, String key, String value) {
        List<Metric> out = new ArrayList<>(metrics.size());
        for (Metric m : metrics) {
            Map<String, String> labels = new TreeMap<>(m.labels());
            labels.put(key, value);
            out.add(new Metric(m.name(), m.value(), m.unit(), m.host(), m.timeSeconds(), labels, m.better(), m.advisory()));
        }
        return out;
    }
}
