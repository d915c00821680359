package io.linerate.core.sink;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Better;
import io.linerate.core.IntervalSample;
import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;
import io.linerate.core.StreamMetrics;
import io.linerate.core.Rates;
import io.linerate.core.TransferResult;
import io.linerate.core.UdpStats;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Turns a {@link TransferResult} into its outputs: iperf-style interval lines, a one-line text
 * summary and the metrics for {@link io.linerate.core.MetricSink}s; {@link ResultJson#transfer}
 * writes its JSON summary.
 * Numbers are formatted with {@link Locale#ROOT}; rates are decimal (1 Mbit/s = 10^6 bit/s) and
 * written in the unit {@link Rates#text(double)} picks.
 */
public final class TransferFormat {
    /** Unit of service demand: CPU microseconds per KiB (1024 bytes) of payload, netperf's unit. */
    public static final String SERVICE_DEMAND_UNIT = "us/KiB";

    /** Version of the JSON summary object ({@link ResultJson#transfer}). */
    public static final int JSON_VERSION = 1;

    private TransferFormat() {}

    /**
     * An interval line as iperf prints it: {@code " 0.00- 1.01 sec  1589248 Bytes  12.59 Mbits/sec"},
     * followed for UDP by jitter and lost/total ({@code "  0.012 ms  3/1000 (0.3%)"}), and by
     * {@code "  (omitted)"} for warm-up intervals. A zero-length interval prints {@code n/a} as rate;
     * an interval without datagrams prints {@code n/a} as jitter and loss percentage. Where the
     * transport read the sender's {@code TCP_INFO} at the interval's ticks ({@link IntervalSample#tcp()}),
     * iperf3's two columns follow the rate: {@code "  Retr   3  Cwnd  404 KBytes"}, the segments
     * retransmitted in the interval and the congestion window at its end ({@link #cwndText}); an
     * interval without them is written as before.
     */
    public static String intervalLine(IntervalSample s, boolean udp) {
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "%5.2f-%5.2f sec  %d Bytes  %s",
                s.startNanos() / 1e9, s.endNanos() / 1e9, s.bytes(), rate(s.bitsPerSecond())));
        if (udp) {
            long total = s.datagrams() + s.lost();
            sb.append(String.format(Locale.ROOT, "  %s ms  %d/%d (%s)", millis(s.jitterNanos()), s.lost(), total,
                    total <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2g%%", 100.0 * s.lost() / total)));
        }
        s.tcp().ifPresent(t -> sb.append(String.format(Locale.ROOT, "  Retr %3d  Cwnd %s", t.retransmits(),
                cwndText(t.cwndBytes()))));
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
                label, r.spec().payloadBytes(), r.measuredNanos() / 1e9, rate(r.bitsPerSecond()),
                r.bytesSent(), r.bytesReceived()));
        r.udp().ifPresent(u -> sb.append(String.format(Locale.ROOT,
                "  datagrams %d of %d received  lost %s  reordered %d  duplicates %d  jitter %s ms",
                u.datagramsReceived(), u.datagramsSent(), u.lossPercent().isPresent()
                        ? String.format(Locale.ROOT, "%d (%.2f%%%s)", u.lost(), u.lossPercent().getAsDouble(),
                                socketDrops(u, ", ")) : "n/a" + socketDrops(u, " "),
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
     * @param prefix what precedes the text when there is one
     * @return the receiving socket's drops over the whole transfer after {@code prefix}
     *     ({@code ", receiving socket dropped 0"}, with its cause when above 0); empty when unknown
     */
    private static String socketDrops(UdpStats u, String prefix) {
        if (u.receiverSocketDrops() < 0) {
            return "";
        }
        String text = prefix + "receiving socket dropped " + u.receiverSocketDrops();
        return u.receiverDropped() ? text + ": its buffer was full, the receiver read too slowly" : text;
    }

    /**
     * @param r a result
     * @return a note for people where the receiving socket dropped datagrams over the transfer
     *     ({@link UdpStats#receiverSocketDrops()} above 0): linerate's receiver, not the path, was
     *     the bottleneck, and what helps; empty otherwise. Starts with {@code "# receiver: "}.
     */
    public static Optional<String> receiverNote(TransferResult r) {
        return r.udp().filter(UdpStats::receiverDropped).map(u -> String.format(Locale.ROOT,
                "# receiver: the receiving socket dropped %d %s over the transfer because its buffer%s "
                        + "was full: linerate's receiver was the bottleneck, not the path; "
                        + "raise --rcvbuf, run fewer streams, or use a less loaded host",
                u.receiverSocketDrops(), r.spec().io().gso()
                        ? "receive buffers (UDP_GRO coalesced, each of up to 64 datagrams)" : "datagrams",
                r.options().receiveBufferApplied() > 0
                        ? " (SO_RCVBUF " + r.options().receiveBufferApplied() + " B)" : ""));
    }

    /**
     * Metrics of one transfer: {@code <marker>_mbps} (receiver goodput, Mbit/s, higher is better;
     * absent when the window has no length), and for UDP {@code <marker>_jitter_ms} (ms, lower is
     * better, advisory: RFC 3550 jitter follows the host's scheduling noise; a reviewed policy file
     * can make it gate) and {@code <marker>_lost_pct} (%, lower is better, judged in percentage
     * points with the default policy of {@link io.linerate.core.MetricDefaults}). Loss is absent
     * when the window sent no datagram, jitter when none of its datagrams arrived: a metric of 0
     * there would read as a perfect run. Goodput is absent too when the sender sent nothing in the
     * window (a window too short for one paced message): 0 Mbit/s there measures nothing, while a
     * window whose data was sent and lost does report 0 Mbit/s and its loss. Where the transport
     * read {@code TCP_INFO} ({@link TransferResult#tcp()}), {@code <marker>_retransmits}: segments the
     * sender retransmitted in the window ({@link io.linerate.core.MetricDefaults#SEGMENTS}, lower is
     * better, report-only with kperf's policy {@code "summarize":"max"}). Last,
     * {@code <marker>_cpu_us_per_kb}: service demand, both measuring threads' CPU time per KiB
     * received ({@link io.linerate.core.ServiceDemand#threadsUsPerKiB()}, µs/KiB, lower is better),
     * absent when nothing was received or the JVM cannot read thread CPU time; and
     * {@code <marker>_instructions_per_byte} (both threads' instructions per byte received,
     * lower is better) where the host counts instructions ({@link TransferResult#instructions()}).
     *
     * @param r the result
     * @param marker the series name prefix, such as {@code udp4_frag}
     * @param timeSeconds the metrics' {@code time}: the measured window's length in seconds, as
     *     {@link TransferResult#metrics()} stamps it (docs/metrics.md section 2)
     */
    public static List<Metric> metrics(TransferResult r, String marker, double timeSeconds) {
        List<Metric> out = new ArrayList<>();
        if (r.windowBytesSent() == 0) {
            return out;
        }
        r.bitsPerSecond().ifPresent(bps -> out.add(Metric.of(StreamMetrics.goodput(marker), Rates.toMbits(bps),
                ResultLineSink.UNIT, timeSeconds, Better.HIGHER)));
        r.udp().ifPresent(u -> {
            u.jitterNanos().ifPresent(j -> out.add(
                    Metric.of(StreamMetrics.jitter(marker), j / 1e6, "ms", timeSeconds, Better.LOWER).asAdvisory()));
            u.lossPercent().ifPresent(l -> out.add(
                    Metric.of(StreamMetrics.lost(marker), l, "%", timeSeconds, Better.LOWER)));
        });
        r.tcp().ifPresent(t -> out.add(Metric.of(StreamMetrics.retransmits(marker), t.windowRetransmits(),
                MetricDefaults.SEGMENTS, timeSeconds, Better.LOWER).asAdvisory()));
        r.serviceDemand().threadsUsPerKiB().ifPresent(d -> out.add(
                Metric.of(StreamMetrics.cpu(marker), d, SERVICE_DEMAND_UNIT, timeSeconds, Better.LOWER)));
        r.instructions().perByte(r.bytesReceived()).ifPresent(i -> out.add(
                Metric.of(marker + "_instructions_per_byte", i, "instructions/B", timeSeconds, Better.LOWER)));
        return out;
    }

    /**
     * A congestion window as iperf3's interval lines write it (its {@code unit_snprintf} with the
     * adaptive byte format): divided by 1024 while at least 1024, up to GBytes, then {@code %4.2f}
     * below 9.995, {@code %4.1f} below 99.95 and {@code %4.0f} above, and the unit
     * ({@code Bytes, KBytes, MBytes, GBytes}): {@code " 404 KBytes"}, {@code "1.50 MBytes"}.
     *
     * @param bytes the window, bytes; -1 when the kernel did not give it
     * @return the text; {@code "n/a"} for -1
     */
    public static String cwndText(long bytes) {
        if (bytes < 0) {
            return "n/a";
        }
        String[] units = {"Bytes", "KBytes", "MBytes", "GBytes"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        String format = v < 9.995 ? "%4.2f %s" : v < 99.95 ? "%4.1f %s" : "%4.0f %s";
        return String.format(Locale.ROOT, format, v, units[u]);
    }

    private static String millis(OptionalDouble nanos) {
        return nanos.isPresent() ? String.format(Locale.ROOT, "%.3f", nanos.getAsDouble() / 1e6) : "n/a";
    }

    private static String rate(OptionalDouble bps) {
        return Rates.text(bps);
    }
}
