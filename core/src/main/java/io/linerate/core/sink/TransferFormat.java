package io.linerate.core.sink;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Better;
import io.linerate.core.IntervalSample;
import io.linerate.core.Metric;
import io.linerate.core.Rates;
import io.linerate.core.TransferResult;
import io.linerate.core.UdpStats;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.latency.ExactRangeHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;

/**
 * Turns a {@link TransferResult} into its outputs: iperf-style interval lines, a one-line text
 * summary, the JSON summary object and the metrics for {@link io.linerate.core.MetricSink}s.
 * Numbers are formatted with {@link Locale#ROOT}; rates are decimal (1 Mbit/s = 10^6 bit/s).
 */
public final class TransferFormat {
    /** Version of the JSON summary object. */
    public static final int JSON_VERSION = 1;

    private TransferFormat() {}

    /**
     * An interval line as iperf prints it: {@code " 0.00- 1.01 sec  1589248 Bytes  12.59 Mbits/sec"},
     * followed for UDP by jitter and lost/total ({@code "  0.012 ms  3/1000 (0.3%)"}), and by
     * {@code "  (omitted)"} for warm-up intervals. A zero-length interval prints {@code n/a} as rate;
     * an interval without datagrams prints {@code n/a} as jitter and loss percentage.
     */
    public static String intervalLine(IntervalSample s, boolean udp) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%5.2f-%5.2f sec  %d Bytes  %s",
                s.startNanos() / 1e9, s.endNanos() / 1e9, s.bytes(), mbits(s.bitsPerSecond())));
        if (udp) {
            long total = s.datagrams() + s.lost();
            sb.append(String.format(Locale.ROOT, "  %s ms  %d/%d (%s)", millis(s.jitterNanos()), s.lost(), total,
                    total <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2g%%", 100.0 * s.lost() / total)));
        }
        if (s.omitted()) {
            sb.append("  (omitted)");
        }
        return sb.toString();
    }

    /** @return {@link #summaryLine(String, TransferResult)} with the result's own marker */
    public static String summaryLine(TransferResult r) {
        return summaryLine(r.marker(), r);
    }

    /**
     * @param label the name to start the line with, such as {@code udp4_frag}
     * @return a one-line summary for people: label, payload, window, goodput, byte counts, UDP
     *     accounting, for TCP the MSS ({@code mss 1208 B}, {@code mss unknown} where it could not be
     *     derived), applied traffic class, CPU time of the sending and receiving threads over the
     *     whole transfer (a CPU-bound run measures the host, not the link), the full log's counts
     *     when there is one, and the reasons when invalid
     */
    public static String summaryLine(String label, TransferResult r) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%-13s %6d B  %10.2f s  %s  sent %d B  received %d B",
                label, r.spec().payloadBytes(), r.measuredNanos() / 1e9, mbits(r.bitsPerSecond()),
                r.bytesSent(), r.bytesReceived()));
        r.udp().ifPresent(u -> sb.append(String.format(Locale.ROOT,
                "  datagrams %d of %d received  lost %s  reordered %d  duplicates %d  jitter %s ms",
                u.datagramsReceived(), u.datagramsSent(), u.lossPercent().isPresent()
                        ? String.format(Locale.ROOT, "%d (%.2f%%)", u.lost(), u.lossPercent().getAsDouble()) : "n/a",
                u.reordered(), u.duplicates(), millis(u.jitterNanos()))));
        AppliedOptions o = r.options();
        if (r.spec().protocol() == io.linerate.core.Protocol.TCP) {
            sb.append(o.tcpMss().map(m -> "  mss " + m.bytes() + " B").orElse("  mss unknown"));
        }
        sb.append(String.format(Locale.ROOT, "  tclass 0x%02x  cpu tx %d ms rx %d ms", o.trafficClassApplied(),
                r.senderCpuNanos() / 1_000_000, r.receiverCpuNanos() / 1_000_000));
        r.fullLog().ifPresent(l -> sb.append("  ").append(l.describe()));
        if (!r.valid()) {
            sb.append("  INVALID: ").append(String.join("; ", r.invalidReasons()));
        }
        return sb.toString();
    }

    /**
     * The JSON summary of one transfer. Fields: {@code version, marker, protocol, family, payload,
     * duration_s} (measured window), {@code warmup_s, rate_bps} (target, 0 = unlimited),
     * {@code bytes_sent, bytes_received, messages_sent, window_bytes_sent, window_bytes_received,
     * bits_per_second} (receiver goodput over the window, null without a window),
     * {@code sender_bits_per_second}, for UDP {@code datagrams_sent, datagrams_received, lost,
     * lost_percent, reordered, duplicates, jitter_ms, one_way_delay_ns} (exact {@code min} and
     * {@code max}, {@code p50} and {@code p99} clamped to them, {@code count} and the histogram's
     * {@code significant_digits}), then {@code options} (for TCP with {@code tcp_mss} and
     * {@code tcp_mss_source}, how it was found), {@code cpu_ns, window_allocated_bytes}, with a full
     * log {@code full_log} (see {@link #putFullLog}), then {@code valid, reasons, intervals}. Loss
     * and jitter of no datagrams are {@code null}, never 0: {@code lost} and {@code lost_percent}
     * when the window sent none, {@code jitter_ms} when none of them arrived (in an interval: when
     * none arrived in it).
     */
    public static ObjectNode summaryJson(TransferResult r) {
        ObjectNode n = MetricJson.MAPPER.createObjectNode();
        n.put("version", JSON_VERSION);
        n.put("marker", r.marker());
        n.put("protocol", r.spec().protocol().label());
        n.put("family", Integer.parseInt(r.spec().family().label()));
        n.put("payload", r.spec().payloadBytes());
        n.put("duration_s", r.measuredNanos() / 1e9);
        n.put("warmup_s", r.spec().warmup().toNanos() / 1e9);
        n.put("rate_bps", r.spec().rateBitsPerSecond());
        n.put("bytes_sent", r.bytesSent());
        n.put("bytes_received", r.bytesReceived());
        n.put("messages_sent", r.messagesSent());
        n.put("window_bytes_sent", r.windowBytesSent());
        n.put("window_bytes_received", r.windowBytesReceived());
        putRate(n, "bits_per_second", r.bitsPerSecond());
        putRate(n, "sender_bits_per_second", r.senderBitsPerSecond());
        if (r.udp().isPresent()) {
            UdpStats u = r.udp().get();
            n.put("datagrams_sent", u.datagramsSent());
            n.put("datagrams_received", u.datagramsReceived());
            if (u.lossPercent().isPresent()) {
                n.put("lost", u.lost());
            } else {
                n.putNull("lost");
            }
            putDouble(n, "lost_percent", u.lossPercent());
            n.put("reordered", u.reordered());
            n.put("duplicates", u.duplicates());
            putDouble(n, "jitter_ms", toMillis(u.jitterNanos()));
            ExactRangeHistogram h = u.oneWayDelay();
            ObjectNode d = n.putObject("one_way_delay_ns");
            if (h.count() > 0) {
                d.put("min", h.min().getAsLong());
                d.put("p50", h.valueAtPercentile(50).getAsLong());
                d.put("p99", h.valueAtPercentile(99).getAsLong());
                d.put("max", h.max().getAsLong());
            }
            d.put("count", h.count());
            d.put("significant_digits", h.significantDigits());
        }
        AppliedOptions o = r.options();
        ObjectNode opts = n.putObject("options");
        opts.put("traffic_class_requested", o.trafficClassRequested());
        opts.put("traffic_class_applied", o.trafficClassApplied());
        opts.put("sndbuf_requested", o.sendBufferRequested());
        opts.put("sndbuf_applied", o.sendBufferApplied());
        opts.put("rcvbuf_requested", o.receiveBufferRequested());
        opts.put("rcvbuf_applied", o.receiveBufferApplied());
        opts.put("nodelay_requested", o.noDelayRequested());
        opts.put("nodelay_applied", o.noDelayApplied());
        if (r.spec().protocol() == io.linerate.core.Protocol.TCP) {
            if (o.tcpMss().isPresent()) {
                opts.put("tcp_mss", o.tcpMss().get().bytes());
                opts.put("tcp_mss_source", o.tcpMss().get().derivation());
            } else {
                opts.putNull("tcp_mss");
                opts.put("tcp_mss_source", "unknown: the path MTU could not be read");
            }
        }
        ObjectNode cpu = n.putObject("cpu_ns");
        cpu.put("sender", r.senderCpuNanos());
        cpu.put("receiver", r.receiverCpuNanos());
        ObjectNode alloc = n.putObject("window_allocated_bytes");
        alloc.put("sender", r.senderAllocatedBytes());
        alloc.put("receiver", r.receiverAllocatedBytes());
        r.fullLog().ifPresent(l -> putFullLog(n, l));
        n.put("valid", r.valid());
        ArrayNode reasons = n.putArray("reasons");
        r.invalidReasons().forEach(reasons::add);
        ArrayNode intervals = n.putArray("intervals");
        for (IntervalSample s : r.intervals()) {
            ObjectNode i = intervals.addObject();
            i.put("start_s", s.startNanos() / 1e9);
            i.put("end_s", s.endNanos() / 1e9);
            i.put("bytes", s.bytes());
            putRate(i, "bits_per_second", s.bitsPerSecond());
            if (r.udp().isPresent()) {
                i.put("datagrams", s.datagrams());
                if (s.datagrams() == 0 && s.lost() == 0) {
                    i.putNull("lost");
                } else {
                    i.put("lost", s.lost());
                }
                putDouble(i, "jitter_ms", toMillis(s.jitterNanos()));
            }
            i.put("omitted", s.omitted());
        }
        return n;
    }

    /**
     * Metrics of one transfer: {@code <marker>_mbps} (receiver goodput, Mbit/s, higher is better;
     * absent when the window has no length), and for UDP {@code <marker>_jitter_ms} (ms, lower is
     * better, advisory: RFC 3550 jitter follows the host's scheduling noise; a reviewed policy file
     * can make it gate) and {@code <marker>_lost_pct} (%, lower is better, judged in percentage
     * points with the default policy of {@link io.linerate.core.MetricDefaults}). Loss is absent
     * when the window sent no datagram, jitter when none of its datagrams arrived: a metric of 0
     * there would read as a perfect run.
     *
     * @param r the result
     * @param marker the series name prefix, such as {@code udp4_frag}
     * @param timeSeconds seconds since the start of the run
     */
    public static List<Metric> metrics(TransferResult r, String marker, double timeSeconds) {
        List<Metric> out = new ArrayList<>();
        r.bitsPerSecond().ifPresent(bps -> out.add(Metric.of(marker + "_mbps", Rates.toMbits(bps),
                ResultLineSink.UNIT, timeSeconds, Better.HIGHER)));
        r.udp().ifPresent(u -> {
            u.jitterNanos().ifPresent(j -> out.add(
                    Metric.of(marker + "_jitter_ms", j / 1e6, "ms", timeSeconds, Better.LOWER).asAdvisory()));
            u.lossPercent().ifPresent(l -> out.add(
                    Metric.of(marker + "_lost_pct", l, "%", timeSeconds, Better.LOWER)));
        });
        return out;
    }

    /**
     * Adds {@code "full_log":{"file":..., "entries":N, "dropped":M}} to {@code n}, with
     * {@code "failure":...} when the log is incomplete beyond drops: entries written, and entries
     * recorded but not written (the writer had fallen behind, or writing failed).
     */
    public static void putFullLog(ObjectNode n, FullLogSummary log) {
        ObjectNode f = n.putObject("full_log");
        f.put("file", log.file());
        f.put("entries", log.entries());
        f.put("dropped", log.dropped());
        log.failure().ifPresent(m -> f.put("failure", m));
    }

    private static void putDouble(ObjectNode n, String key, OptionalDouble v) {
        putRate(n, key, v);
    }

    private static OptionalDouble toMillis(OptionalDouble nanos) {
        return nanos.isPresent() ? OptionalDouble.of(nanos.getAsDouble() / 1e6) : OptionalDouble.empty();
    }

    private static String millis(OptionalDouble nanos) {
        return nanos.isPresent() ? String.format(Locale.ROOT, "%.3f", nanos.getAsDouble() / 1e6) : "n/a";
    }

    private static void putRate(ObjectNode n, String key, OptionalDouble v) {
        if (v.isPresent()) {
            n.put(key, v.getAsDouble());
        } else {
            n.putNull(key);
        }
    }

    private static String mbits(OptionalDouble bps) {
        return bps.isPresent() ? String.format(Locale.ROOT, "%.2f Mbits/sec", bps.getAsDouble() / 1e6) : "n/a Mbits/sec";
    }
}
