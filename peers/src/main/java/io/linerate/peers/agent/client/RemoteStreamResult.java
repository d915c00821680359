package io.linerate.peers.agent.client;

import io.linerate.core.Better;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;
import io.linerate.core.Rates;
import io.linerate.core.StreamMetrics;
import io.linerate.core.TransferResult;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.ResultLineSink;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.HostClock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A stream between this host and a peer agent, with both ends' own counts.
 *
 * <p>{@link #transfer()} joins them as one {@link TransferResult}: bytes sent as the sender counted
 * them, bytes received as the receiver did, the receiver's window, each end's CPU time, UDP loss
 * as the sender's window datagrams minus the distinct ones the receiver got. {@link #metrics()}
 * reports each end apart, with {@code "host":"local"} or {@code "host":"remote"}:
 * labelled {@code direction} ({@code forward} when this host sends), the end's own rate, as
 * {@link StreamMetrics} names it: {@code <marker>_sent_mbps} for the sender over its window,
 * {@code <marker>_mbps} (goodput) for the receiver; for TCP over the receiver's own window, for UDP the bytes of the datagrams sent
 * inside the sender's window that arrived, wherever they arrived, over the sender's window length,
 * as in {@link #transfer()}), {@code <marker>_cpu_us_per_kb} (service demand as netperf defines it:
 * CPU µs of the end's sending or receiving thread per KiB = 1024 bytes of payload it moved, lower
 * is better, advisory) and, for UDP, {@code <marker>_lost_pct} and {@code <marker>_jitter_ms} (RFC 3550,
 * advisory) at the receiver's host. Each end
 * counts by its own clock. {@link #clock()} says how the two clocks compare: {@code "same host"}
 * (the agent runs on this host's kernel, over loopback or in a network namespace of it, and both
 * read one monotonic clock) or {@code "unsynchronised"}. No one-way delay is reported: the ends do
 * not exchange per-datagram timestamps, and across unsynchronised clocks none could be derived.
 *
 * @param transfer both ends joined
 * @param local this host's end
 * @param remote the agent's end
 * @param clock {@code "same host"} or {@code "unsynchronised"}
 * @param farSenderIntervals where the agent sends a TCP stream: whether its per-interval
 *     {@code TCP_INFO} was joined onto {@link TransferResult#intervals()} of {@code transfer}, or why
 *     not; empty where this host sends (its own intervals carry its figures) and for UDP
 */
public record RemoteStreamResult(TransferResult transfer, EndCounters local, EndCounters remote, String clock,
                                 Optional<FarSenderIntervals> farSenderIntervals)
        implements MeasurementResult {

    /** @throws NullPointerException for a null {@code farSenderIntervals} (use the empty one) */
    public RemoteStreamResult {
        java.util.Objects.requireNonNull(farSenderIntervals, "farSenderIntervals");
    }

    /** Both ends, without the far sender's per-interval figures. */
    public RemoteStreamResult(TransferResult transfer, EndCounters local, EndCounters remote, String clock) {
        this(transfer, local, remote, clock, Optional.empty());
    }

    /** Both ends, their clocks not compared ({@code "unsynchronised"}). */
    public RemoteStreamResult(TransferResult transfer, EndCounters local, EndCounters remote) {
        this(transfer, local, remote, HostClock.UNSYNCHRONISED);
    }

    @Override
    public MeasurementSpec spec() {
        return transfer.spec();
    }

    @Override
    public List<String> invalidReasons() {
        return transfer.invalidReasons();
    }

    /** @return whether this end's window was ended early by an interrupt, and the agent's with it when it answered */
    @Override
    public boolean interrupted() {
        return transfer.interrupted();
    }

    @Override
    public List<Metric> metrics() {
        if (!invalidReasons().isEmpty()) {
            // an invalid run has no numbers to gate on, as a local TransferResult's window rules say
            return List.of();
        }
        List<Metric> out = new ArrayList<>();
        String marker = transfer.marker();
        EndCounters receiver = local.sender() ? remote : local;
        EndCounters sender = local.sender() ? local : remote;
        boolean udp = transfer.udp().isPresent();
        Map<String, String> labels = Map.of(StreamMetrics.DIRECTION, StreamMetrics.direction(local.sender()));
        end(out, marker, local, Metric.LOCAL, udp && local == receiver ? sender.windowNanos() : local.windowNanos(), labels);
        end(out, marker, remote, StreamMetrics.REMOTE, udp && remote == receiver ? sender.windowNanos() : remote.windowNanos(),
                labels);
        transfer.udp().ifPresent(u -> {
            String at = StreamMetrics.host(receiver == local);
            double t = receiver.windowNanos() / 1e9;
            u.lossPercent().ifPresent(l -> out.add(new Metric(StreamMetrics.lost(marker), l, "%", at, t, labels, Better.LOWER)));
            u.jitterNanos().ifPresent(j -> out.add(new Metric(StreamMetrics.jitter(marker), j / 1e6, "ms", at, t, labels,
                    Better.LOWER).asAdvisory()));
        });
        // the sender's retransmits, where its TCP_INFO was read (this host's, or the agent's sent back)
        transfer.tcp().ifPresent(tcp -> out.add(new Metric(StreamMetrics.retransmits(marker), tcp.windowRetransmits(),
                MetricDefaults.SEGMENTS, StreamMetrics.host(sender == local), sender.windowNanos() / 1e9, labels,
                Better.LOWER).asAdvisory()));
        return out;
    }

    private static void end(List<Metric> out, String marker, EndCounters e, String host, long windowNanos,
                            Map<String, String> labels) {
        double t = windowNanos / 1e9;
        String name = e.sender() ? StreamMetrics.sent(marker) : StreamMetrics.goodput(marker);
        Rates.bitsPerSecond(e.windowBytes(), windowNanos).ifPresent(bps -> out.add(new Metric(name, Rates.toMbits(bps),
                ResultLineSink.UNIT, host, t, labels, Better.HIGHER)));
        serviceDemand(e).ifPresent(d -> out.add(new Metric(StreamMetrics.cpu(marker), d, "us/KiB", host, t,
                labels, Better.LOWER).asAdvisory()));
    }

    /** @return CPU µs per KiB of payload the end moved over the whole stream; empty when it moved none */
    public static OptionalDouble serviceDemand(EndCounters e) {
        return e.bytes() <= 0 ? OptionalDouble.empty() : OptionalDouble.of((e.cpuNanos() / 1e3) / (e.bytes() / 1024.0));
    }

    /**
     * @return {@link ResultJson#transfer} of {@link #transfer()} (whose intervals carry the far
     *     sender's {@code TCP_INFO} figures where they were joined), then {@code local} and
     *     {@code remote} (each end's own counts), {@code clock}, {@code one_way_delay}, and where the
     *     agent sends a TCP stream {@code tcp_intervals} or {@code tcp_intervals_unavailable}
     *     ({@link FarSenderIntervals#putInto})
     */
    @Override
    public JsonObject detailJson() {
        JsonObject d = ResultJson.transfer(transfer).put("local", endJson(local)).put("remote", endJson(remote))
                .put("clock", clock).put("one_way_delay", "not reported: the ends exchange no per-datagram timestamps");
        farSenderIntervals.ifPresent(f -> f.putInto(d));
        return d;
    }

    private static JsonObject endJson(EndCounters e) {
        return JsonObject.create().put("role", e.sender() ? "sender" : "receiver").put("bytes", e.bytes())
                .put("messages", e.messages()).put("window_ns", e.windowNanos()).put("window_bytes", e.windowBytes())
                .put("bits_per_second", e.bitsPerSecond()).put("cpu_ns", e.cpuNanos())
                .put("service_demand_us_per_kib", serviceDemand(e)).put("cpu_source", "thread")
                .put("clock", "own");
    }
}
