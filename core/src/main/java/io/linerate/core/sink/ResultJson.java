package io.linerate.core.sink;

import io.linerate.core.MeasurementResult;
import io.linerate.core.Affinity;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.ServiceDemand;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferResult;
import io.linerate.core.UdpStats;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.latency.ExactRangeHistogram;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;

/**
 * Turns results into their JSON objects: a transfer's summary and the socket options it applied (one
 * schema for every command that reports them); {@link LatencyJson} writes a ping-pong sweep and a
 * request/response run. Each
 * method returns a {@link JsonObject}, to which a caller may add fields before writing it with
 * {@link JsonObject#toJson()}. Loss, jitter and rates that do not exist are {@code null}, never 0.
 */
public final class ResultJson {
    /** Version of the transfer summary object. */
    public static final int TRANSFER_VERSION = TransferFormat.JSON_VERSION;

    /** The {@code format} of {@link #of}'s object. */
    public static final String RESULT_FORMAT = "linerate-result";
    /** The {@code version} of {@link #of}'s object. */
    public static final int RESULT_VERSION = 1;

    private ResultJson() {}

    /**
     * The one JSON shape of every pattern's result: {@code format} ({@value #RESULT_FORMAT}),
     * {@code version}, {@code pattern} ({@link io.linerate.core.Pattern#label()}), {@code test} (the
     * KTAP test its metrics belong to, {@link io.linerate.core.MeasurementSpec#testName()}), {@code valid},
     * {@code invalid_reasons}, {@code interrupted} (only when true: the run was stopped early,
     * {@link MeasurementResult#interrupted()}), {@code metrics} (the objects of
     * {@link MetricJson#metric}) and {@code detail} (the pattern's own fields,
     * {@link MeasurementResult#detailJson()}).
     *
     * @param r any result
     * @return its object
     */
    public static JsonObject of(MeasurementResult r) {
        JsonObject n = JsonObject.create();
        n.put("format", RESULT_FORMAT);
        n.put("version", RESULT_VERSION);
        n.put("pattern", r.spec().pattern().label());
        n.put("test", r.spec().testName());
        n.put("valid", r.valid());
        n.putStrings("invalid_reasons", r.invalidReasons());
        if (r.interrupted()) {
            n.put("interrupted", true);
        }
        n.putObjects("metrics", r.metrics().stream().map(MetricJson::metricObject).toList());
        n.put("detail", r.detailJson());
        return n;
    }

    /**
     * The JSON summary of one transfer. Fields: {@code version, marker, protocol, family, payload,
     * duration_s} (measured window), {@code warmup_s, rate_bps} (target, 0 = unlimited),
     * {@code bytes_sent, bytes_received, messages_sent, window_bytes_sent, window_bytes_received,
     * bits_per_second} (receiver goodput over the window, null without a window),
     * {@code sender_bits_per_second}, for UDP {@code datagrams_sent, datagrams_received, lost,
     * lost_percent, reordered, duplicates, jitter_ms}, {@code receiver_socket_drops} (packets the
     * receiving socket dropped over the whole transfer, the kernel's {@code sk_drops}: datagrams, or
     * with {@code UDP_GRO} coalesced buffers of several; only where known), {@code one_way_delay_ns} (exact {@code min} and
     * {@code max}, {@code p50} and {@code p99} clamped to them, {@code count} and the histogram's
     * {@code significant_digits}), then {@code options} ({@link #options}), {@code tcp_info} where the
     * transport read the sender's {@code TCP_INFO} ({@link #tcpInfo}), else {@code tcp_info_unavailable}
     * saying why where that is known (no TCP_INFO source on the class path), {@code data_path} where
     * the transport reports its system calls ({@link #dataPath}), {@code affinity} where an end was
     * pinned ({@code client}: the sending threads' CPU, {@code server}: the receiving threads', each
     * a number or {@code any}), {@code cpu_ns,
     * window_allocated_bytes, valid, reasons}, {@code interrupted} (only when true), {@code intervals}
     * ({@code start_s, end_s, bytes, bits_per_second}, for UDP {@code datagrams, lost, jitter_ms}, where the
     * transport read {@code TCP_INFO} at each tick {@code retransmits, cwnd_bytes, tcpi_rtt, tcpi_rttvar,
     * tcpi_pacing_rate, tcpi_delivery_rate}, then {@code omitted}). Loss and jitter of no datagrams are
     * {@code null}, never 0: {@code lost} and {@code lost_percent} when the window sent none,
     * {@code jitter_ms} when none of them arrived (in an interval: when none arrived in it).
     *
     * @param r the result
     * @return the summary object
     */
    public static JsonObject transfer(TransferResult r) {
        JsonObject n = JsonObject.create();
        n.put("version", TRANSFER_VERSION);
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
        n.put("bits_per_second", r.bitsPerSecond());
        n.put("sender_bits_per_second", r.senderBitsPerSecond());
        r.udp().ifPresent(u -> udp(n, u));
        n.put("options", options(r.options(), r.spec().protocol() == Protocol.TCP));
        r.tcp().ifPresent(t -> n.put("tcp_info", tcpInfo(t)));
        if (r.tcp().isEmpty() && !r.tcpUnavailable().isEmpty()) {
            n.put("tcp_info_unavailable", r.tcpUnavailable());
        }
        r.dataPath().ifPresent(p -> n.put("data_path", dataPath(p)));
        if (r.spec().affinity().pins()) {
            // each pinned thread's CPU set was read back as this one CPU before it ran
            n.put("affinity", JsonObject.create().put("client", r.spec().affinity().clientCpu().isPresent()
                    ? Integer.toString(r.spec().affinity().clientCpu().getAsInt()) : Affinity.ANY)
                    .put("server", r.spec().affinity().serverCpu().isPresent()
                            ? Integer.toString(r.spec().affinity().serverCpu().getAsInt()) : Affinity.ANY));
        }
        cost(n, r);
        n.put("window_allocated_bytes", JsonObject.create().put("sender", r.senderAllocatedBytes())
                .put("receiver", r.receiverAllocatedBytes()));
        r.fullLog().ifPresent(l -> n.put("full_log", fullLog(l)));
        n.put("valid", r.valid());
        n.putStrings("reasons", r.invalidReasons());
        if (r.interrupted()) {
            n.put("interrupted", true);
        }
        n.putObjects("intervals", intervals(r));
        return n;
    }

    /**
     * The sending socket's {@code TCP_INFO} figures ({@link TcpStats}), named as Linux
     * {@code <linux/tcp.h>} names the fields they come from: {@code retransmits_window},
     * {@code tcpi_total_retrans} (segments), {@code cwnd_bytes} ({@code tcpi_snd_cwnd × tcpi_snd_mss}),
     * {@code tcpi_rtt}, {@code tcpi_rttvar} (µs), {@code tcpi_pacing_rate}, {@code tcpi_delivery_rate}
     * (bytes/s, -1 when unlimited or not given), {@code tcpi_snd_mss} of the sender and
     * {@code tcpi_rcv_mss} of the receiver (bytes).
     */
    /**
     * The system calls of a stream's ends: {@code sender} and {@code receiver}, each {@code call}
     * (as its man page names it), {@code calls}, {@code segments} (datagrams, each GSO/GRO segment
     * counted once; TCP writes or reads), {@code segments_per_call} (mean) and
     * {@code max_segments_per_call}, or the {@code call} alone for the agent's end where its
     * transport names no calls ({@link DataPath.End#reported()}); then {@code payload_note} where the
     * payload was not checked.
     */
    private static JsonObject dataPath(DataPath p) {
        JsonObject n = JsonObject.create().put("sender", dataPathEnd(p.sender())).put("receiver", dataPathEnd(p.receiver()));
        if (!p.payloadNote().isEmpty()) {
            n.put("payload_note", p.payloadNote());
        }
        return n;
    }

    private static JsonObject dataPathEnd(DataPath.End e) {
        if (!e.reported()) {
            return JsonObject.create().put("call", e.call());
        }
        return JsonObject.create().put("call", e.call()).put("calls", e.calls()).put("segments", e.segments())
                .put("segments_per_call", e.segmentsPerCall()).put("max_segments_per_call", e.maxSegmentsPerCall());
    }

    private static JsonObject tcpInfo(TcpStats t) {
        return tcpInfo(t, "TCP_INFO of the sending socket");
    }

    /**
     * A socket's {@code TCP_INFO} figures under the field names of a stream's {@code tcp_info}
     * ({@link #transfer}): {@code source} (which socket or sockets, for people), then
     * {@code retransmits_window}, {@code tcpi_total_retrans} (segments), {@code cwnd_bytes},
     * {@code tcpi_rtt}, {@code tcpi_rttvar} (µs), {@code tcpi_pacing_rate}, {@code tcpi_delivery_rate}
     * (bytes/s, -1 when unlimited or not given), {@code tcpi_snd_mss} and {@code tcpi_rcv_mss} (bytes).
     *
     * @param t the figures
     * @param source which socket they were read from, such as {@code TCP_INFO of the client's socket}
     * @return the object
     */
    public static JsonObject tcpInfo(TcpStats t, String source) {
        return JsonObject.create().put("source", source)
                .put("retransmits_window", t.windowRetransmits()).put("tcpi_total_retrans", t.totalRetransmits())
                .put("cwnd_bytes", t.cwndBytes()).put("tcpi_rtt", t.rttMicros()).put("tcpi_rttvar", t.rttVarMicros())
                .put("tcpi_pacing_rate", t.pacingRate()).put("tcpi_delivery_rate", t.deliveryRate())
                .put("tcpi_snd_mss", t.senderMss()).put("tcpi_rcv_mss", t.receiverMss());
    }

    /** Puts a UDP transfer's datagram counts, loss, jitter and one-way delay into {@code n}. */
    private static void udp(JsonObject n, UdpStats u) {
        n.put("datagrams_sent", u.datagramsSent());
        n.put("datagrams_received", u.datagramsReceived());
        if (u.lossPercent().isPresent()) {
            n.put("lost", u.lost());
        } else {
            n.putNull("lost");
        }
        n.put("lost_percent", u.lossPercent());
        n.put("reordered", u.reordered());
        n.put("duplicates", u.duplicates());
        n.put("jitter_ms", toMillis(u.jitterNanos()));
        if (u.receiverSocketDrops() >= 0) {
            n.put("receiver_socket_drops", u.receiverSocketDrops());
        }
        ExactRangeHistogram h = u.oneWayDelay();
        JsonObject d = JsonObject.create();
        if (h.count() > 0) {
            d.put("min", h.min().getAsLong());
            d.put("p50", h.valueAtPercentile(50).getAsLong());
            d.put("p99", h.valueAtPercentile(99).getAsLong());
            d.put("max", h.max().getAsLong());
        }
        d.put("count", h.count());
        d.put("significant_digits", h.significantDigits());
        n.put("one_way_delay_ns", d);
    }

    /** Puts what the transfer cost into {@code n}: CPU time, service demand and instructions. */
    private static void cost(JsonObject n, TransferResult r) {
        n.put("cpu_ns", JsonObject.create().put("sender", r.senderCpuNanos()).put("receiver", r.receiverCpuNanos())
                .put("process", r.processCpuNanos()));
        ServiceDemand d = r.serviceDemand();
        n.put("service_demand_us_per_kib", JsonObject.create().put("sender", d.senderUsPerKiB())
                .put("receiver", d.receiverUsPerKiB()).put("threads", d.threadsUsPerKiB())
                .put("process", d.processUsPerKiB()).put("basis", d.basis()));
        JsonObject insns = JsonObject.create();
        if (r.instructions().unavailable().isPresent()) {
            insns.put("unavailable", r.instructions().unavailable().get());
        } else {
            insns.put("sender", r.instructions().sender()).put("receiver", r.instructions().receiver())
                    .put("per_byte", r.instructions().perByte(r.bytesReceived()));
        }
        n.put("instructions", insns);
    }

    private static List<JsonObject> intervals(TransferResult r) {
        List<JsonObject> intervals = new ArrayList<>();
        for (IntervalSample s : r.intervals()) {
            JsonObject i = JsonObject.create();
            i.put("start_s", s.startNanos() / 1e9);
            i.put("end_s", s.endNanos() / 1e9);
            i.put("bytes", s.bytes());
            i.put("bits_per_second", s.bitsPerSecond());
            if (r.udp().isPresent()) {
                i.put("datagrams", s.datagrams());
                if (s.datagrams() == 0 && s.lost() == 0) {
                    i.putNull("lost");
                } else {
                    i.put("lost", s.lost());
                }
                i.put("jitter_ms", toMillis(s.jitterNanos()));
            }
            s.tcp().ifPresent(t -> tcpInterval(i, t));
            i.put("omitted", s.omitted());
            intervals.add(i);
        }
        return intervals;
    }

    /**
     * Puts an interval's {@code TCP_INFO} figures ({@link TcpIntervalSample}) into its object, named
     * as {@link #tcpInfo} names the run's: {@code retransmits} (segments retransmitted in the
     * interval, the change of {@code tcpi_total_retrans}), {@code cwnd_bytes}, {@code tcpi_rtt},
     * {@code tcpi_rttvar} (µs), {@code tcpi_pacing_rate} and {@code tcpi_delivery_rate} (bytes/s),
     * each at the interval's end and -1 where the kernel did not give it. An interval whose socket
     * was not read has none of these fields.
     */
    private static void tcpInterval(JsonObject i, TcpIntervalSample t) {
        i.put("retransmits", t.retransmits()).put("cwnd_bytes", t.cwndBytes()).put("tcpi_rtt", t.rttMicros())
                .put("tcpi_rttvar", t.rttVarMicros()).put("tcpi_pacing_rate", t.pacingRate())
                .put("tcpi_delivery_rate", t.deliveryRate());
    }

    /**
     * @param log what a full log wrote
     * @return {@code {"file":..., "entries":N, "dropped":M}}, with {@code "failure":...} when the log
     *     is incomplete beyond drops: entries written, and entries recorded but not written (the
     *     writer had fallen behind, or writing failed)
     */
    public static JsonObject fullLog(FullLogSummary log) {
        JsonObject f = JsonObject.create().put("file", log.file()).put("entries", log.entries()).put("dropped", log.dropped());
        log.failure().ifPresent(m -> f.put("failure", m));
        return f;
    }

    /**
     * Socket options as requested and as the kernel applied them, the one schema of every output
     * that reports them ({@code stream}'s and the suite's {@code options}, {@code pingpong}'s):
     * {@code traffic_class_requested, traffic_class_applied, sndbuf_requested, sndbuf_applied}
     * (bytes), {@code rcvbuf_requested, rcvbuf_applied} (bytes), {@code nodelay_requested,
     * nodelay_applied}, and for TCP {@code tcp_mss} (bytes) and {@code tcp_mss_source}, how it was
     * derived or read ({@code tcp_mss} null and the source {@code unknown: ...} where the path MTU could not
     * be read); where it was read from the sockets, {@code tcp_mss} is the sender's and
     * {@code tcp_mss_receiver} (bytes) the receiver's.
     *
     * @param o the options
     * @param tcp whether the transport is TCP, which alone has an MSS
     * @return the options object
     */
    public static JsonObject options(AppliedOptions o, boolean tcp) {
        JsonObject opts = JsonObject.create();
        opts.put("traffic_class_requested", o.trafficClassRequested());
        opts.put("traffic_class_applied", o.trafficClassApplied());
        opts.put("sndbuf_requested", o.sendBufferRequested());
        opts.put("sndbuf_applied", o.sendBufferApplied());
        opts.put("rcvbuf_requested", o.receiveBufferRequested());
        opts.put("rcvbuf_applied", o.receiveBufferApplied());
        opts.put("nodelay_requested", o.noDelayRequested());
        opts.put("nodelay_applied", o.noDelayApplied());
        if (tcp) {
            if (o.tcpMss().isPresent()) {
                opts.put("tcp_mss", o.tcpMss().get().bytes());
                opts.put("tcp_mss_source", o.tcpMss().get().derivation());
                o.tcpMss().get().read().ifPresent(r -> opts.put("tcp_mss_receiver", r.receiverBytes()));
            } else {
                opts.putNull("tcp_mss");
                opts.put("tcp_mss_source", "unknown: the path MTU could not be read");
            }
        }
        return opts;
    }

    private static void putIfPresent(JsonObject o, String key, OptionalDouble v) {
        if (v.isPresent()) {
            o.put(key, v.getAsDouble());
        }
    }

    private static OptionalDouble toMillis(OptionalDouble nanos) {
        return nanos.isPresent() ? OptionalDouble.of(nanos.getAsDouble() / 1e6) : OptionalDouble.empty();
    }
}
