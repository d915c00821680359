package io.linerate.peers.iperf2;

import io.linerate.core.Better;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.StreamMetrics;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.JsonObject;
import io.linerate.peers.internal.PeerResultDetail;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a run against an iperf 2 server measured: linerate's own counts (host {@code local}) and,
 * for UDP, the server's report (host {@code remote}). iperf 2's TCP server reports nothing back,
 * so a TCP result has linerate's counts only.
 *
 * <p>Metrics, named as {@link StreamMetrics} names a stream's quantities (linerate sends: label
 * {@code direction=forward}): {@code <marker>_sent_mbps} (local, linerate's bytes over its sending
 * time), and from the server's report {@code <marker>_mbps} (remote, the server's bytes over its own
 * time, which are fewer than it was sent when it truncates datagrams to its {@code -l}, said in
 * {@link #notes()}), {@code <marker>_lost_pct} (remote, iperf 2's own errors over its datagram total)
 * and {@code <marker>_jitter_ms} (remote, iperf 2's estimator on its timestamps; advisory).
 * linerate's own loss count, sent less received, is in {@link #notes()} and the JSON detail.
 */
public final class Iperf2Result implements MeasurementResult {
    private final TransferSpec spec;
    private final String server;
    private final Iperf2HeaderVariant header;
    private final Local local;
    private final Optional<Iperf2ServerReport> remote;
    private final boolean interrupted;
    private final List<String> notes;

    /**
     * linerate's counts.
     *
     * @param bytes payload bytes sent (UDP: the final datagram included, as the server counts it)
     * @param datagrams UDP datagrams sent, the final one included once; TCP: writes
     * @param nanos from the first send to the last, ns
     */
    public record Local(long bytes, long datagrams, long nanos) {}

    Iperf2Result(TransferSpec spec, String server, Iperf2HeaderVariant header, Local local, Optional<Iperf2ServerReport> remote,
                 String problem) {
        this(spec, server, header, local, remote, problem, false);
    }

    /**
     * @param interrupted linerate stopped sending early because its thread was interrupted: {@code local}
     *     holds its sends until then, and a UDP report the server's count of them, when one came
     */
    Iperf2Result(TransferSpec spec, String server, Iperf2HeaderVariant header, Local local, Optional<Iperf2ServerReport> remote,
                 String problem, boolean interrupted) {
        this.interrupted = interrupted;
        this.spec = spec;
        this.server = server;
        this.header = header;
        this.local = local;
        this.remote = remote;
        List<String> n = new ArrayList<>();
        if (interrupted) {
            n.add("interrupted: linerate stopped sending before the bound; its counts, and the server's report when "
                    + "one came, are those until then");
        }
        if (!problem.isEmpty()) {
            n.add(problem);
        }
        if (spec.protocol() == Protocol.TCP) {
            n.add("iperf 2's TCP server sends no report: the far end's figures (host remote) are absent, and linerate's "
                    + "are its own sends");
        }
        remote.ifPresent(r -> {
            long received = received();
            if (r.errors() != lost()) {
                n.add(String.format(Locale.ROOT, "loss: linerate counts %d of the %d datagrams it sent lost (sent less the %d "
                        + "the server received: its %d in all less its %d lost); iperf 2 counts %d of %d, its in all (the "
                        + "final datagram's id) differing from what linerate sent", lost(), local.datagrams(), received,
                        r.datagrams(), r.errors(), r.errors(), r.datagrams()));
            }
            if (received > 0 && r.bytes() < received * spec.payloadBytes()) {
                String each = r.bytes() % received == 0 ? Long.toString(r.bytes() / received)
                        : String.format(Locale.ROOT, "about %.0f", (double) r.bytes() / received);
                n.add(String.format(Locale.ROOT, "the server read only %s bytes of each %d-byte datagram (iperf 2's server "
                        + "truncates each to its -l): its %d bytes for %d datagrams received, so the remote %s from its "
                        + "bytes is low by that ratio; loss is counted from its datagrams, not its bytes",
                        each, spec.payloadBytes(), r.bytes(), received, StreamMetrics.goodput(streamMarker())));
            }
        });
        this.notes = List.copyOf(n);
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    /** @return whether linerate stopped sending before the bound because its thread was interrupted */
    @Override
    public boolean interrupted() {
        return interrupted;
    }

    /** @return the server, {@code host:port} */
    public String server() {
        return server;
    }

    /** @return the UDP header layout sent; empty for TCP */
    public Optional<Iperf2HeaderVariant> header() {
        return Optional.ofNullable(header);
    }

    /** @return linerate's counts */
    public Local local() {
        return local;
    }

    /** @return the server's UDP report; empty for TCP or when none arrived */
    public Optional<Iperf2ServerReport> remote() {
        return remote;
    }

    private boolean udp() {
        return spec.protocol() == Protocol.UDP;
    }

    /**
     * @return UDP datagrams the server received by its report's counts: its datagrams in all less
     *     the ones it counts lost ({@link Iperf2ServerReport#received()}); 0 without a report. Not
     *     its bytes over the payload: iperf 2's server reads only its {@code -l} bytes of each datagram.
     */
    public long received() {
        return remote.map(Iperf2ServerReport::received).orElse(0L);
    }

    /** @return UDP datagrams lost by linerate's count: sent less received; 0 for TCP or without a report */
    public long lost() {
        return udp() && remote.isPresent() ? Math.max(0, local.datagrams() - received()) : 0;
    }

    /** @return protocol and family, the marker of this result's metrics ({@link StreamMetrics}), such as {@code udp4} */
    private String streamMarker() {
        return StreamMetrics.marker(spec.protocol().label(), spec.family() == io.linerate.core.AddressFamily.IPV6);
    }

    /** @return {@code iperf2_} then protocol and family */
    public String marker() {
        return "iperf2_" + spec.protocol().label() + spec.family().label();
    }

    /** @return where the two ends disagree or what is missing, and why; empty when they agree */
    public List<String> notes() {
        return notes;
    }

    @Override
    public List<String> invalidReasons() {
        if (local.bytes() == 0) {
            return List.of("no payload byte was sent");
        }
        if (udp() && remote.isEmpty()) {
            return List.of("the iperf 2 server sent no report: loss is unknown");
        }
        return List.of();
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> out = new ArrayList<>();
        if (!invalidReasons().isEmpty() || local.nanos() == 0) {
            // an invalid run has no numbers to gate on (without the server's report, loss is unknown)
            return out;
        }
        String m = streamMarker();
        double t = local.nanos() / 1e9;
        out.add(metric(StreamMetrics.sent(m), local.bytes() * 8.0 / t / 1e6, StreamMetrics.MBPS, Metric.LOCAL, t, Better.HIGHER));
        remote.ifPresent(r -> {
            if (r.durationMicros() > 0) {
                out.add(metric(StreamMetrics.goodput(m), r.bytes() * 8.0 / r.durationMicros(), StreamMetrics.MBPS,
                        StreamMetrics.REMOTE, t, Better.HIGHER));
            }
            if (r.datagrams() > 0) {
                out.add(metric(StreamMetrics.lost(m), 100.0 * r.errors() / r.datagrams(), "%", StreamMetrics.REMOTE, t, Better.LOWER));
            }
            out.add(metric(StreamMetrics.jitter(m), r.jitterMicros() / 1e3, "ms", StreamMetrics.REMOTE, t, Better.LOWER).asAdvisory());
        });
        return out;
    }

    private static Metric metric(String name, double v, String unit, String host, double t, Better better) {
        return new Metric(name, v, unit, host, t, Map.of(StreamMetrics.DIRECTION, StreamMetrics.FORWARD), better);
    }

    @Override
    public JsonObject detailJson() {
        JsonObject d = PeerResultDetail.head("iperf2", server, marker(), spec);
        if (header != null) {
            d.put("iperf2_header", header.cliName());
        }
        JsonObject l = JsonObject.create().put("host", Metric.LOCAL).put("bytes", local.bytes()).put("seconds", local.nanos() / 1e9);
        if (udp()) {
            l.put("datagrams_sent", local.datagrams());
            if (remote.isPresent()) {
                l.put("received", received()).put("lost", lost());
            }
        }
        d.put("local", l);
        remote.ifPresentOrElse(r -> d.put("remote", JsonObject.create().put("host", "remote").put("bytes", r.bytes())
                .put("datagrams", r.datagrams()).put("errors", r.errors()).put("out_of_order", r.outOfOrder())
                .put("jitter_ms", r.jitterMicros() / 1e3).put("seconds", r.durationMicros() / 1e6)), () -> d.putNull("remote"));
        d.putStrings("notes", notes);
        return d;
    }
}
