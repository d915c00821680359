package io.linerate.peers.iperf3;

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
import java.util.OptionalDouble;

/**
 * What a run against an iperf3 server measured, from both ends: linerate's own counts (metrics with
 * host {@code local}) and the results the server sent at EXCHANGE_RESULTS (host {@code remote}).
 * Where the two disagree, {@link #notes()} says by how much and why. Both ends count the whole
 * transfer: iperf3's server has no warm-up to leave out, so the spec's warm-up is not applied.
 *
 * <p>Metrics, named as {@link StreamMetrics} names a stream's quantities, so that they share their
 * keys with the gate's reading of iperf3's own {@code -J} output of the same test: under the marker
 * of protocol and family ({@code tcp4}, {@code udp6}), labelled {@code direction}, each end's bytes
 * over its own time as {@code _sent_mbps} at the sender's host and {@code _mbps} (goodput) at the
 * receiver's, and for UDP the receiver's {@code _lost_pct} and {@code _jitter_ms} (advisory): the
 * server's own figures (errors / highest sequence number; iperf3's RFC 1889 estimator) when linerate
 * sends, linerate's (datagrams the server sent less distinct ones received; RFC 3550) when it
 * receives. linerate's own loss of a forward test, which counts the tail, is in {@link #notes()}.
 */
public final class Iperf3Result implements MeasurementResult {
    private final TransferSpec spec;
    private final Iperf3Options options;
    private final String server;
    private final Local local;
    private final List<Iperf3RemoteStream> remote;
    private final Optional<Boolean> serverReadAll;
    private final boolean bidir;
    private final boolean interrupted;
    private final List<String> notes;

    /**
     * linerate's own counts, summed over the streams.
     *
     * @param bytes payload bytes linerate sent, or received (reverse)
     * @param datagrams UDP datagrams linerate sent, or received including duplicates (reverse); TCP writes sent
     * @param distinct UDP reverse: distinct sequence numbers received; otherwise 0
     * @param reordered UDP reverse: arrivals below a number already seen; otherwise 0
     * @param duplicates UDP reverse: arrivals of a number already seen; otherwise 0
     * @param jitterNanos UDP reverse: RFC 3550 jitter, ns (the mean over the streams); empty before two arrivals
     * @param nanos the longest stream's time from its first send or read to its last, ns
     */
    public record Local(long bytes, long datagrams, long distinct, long reordered, long duplicates,
                        OptionalDouble jitterNanos, long nanos) {}

    Iperf3Result(TransferSpec spec, Iperf3Options options, String server, Local local, List<Iperf3RemoteStream> remote,
                 Optional<Boolean> serverReadAll, boolean bidir) {
        this(spec, options, server, local, remote, serverReadAll, bidir, false);
    }

    /**
     * @param interrupted the run was interrupted: linerate sent CLIENT_TERMINATE, as iperf3's client
     *     does on SIGINT, and {@code local} holds its counts until then; {@code remote} is empty
     */
    Iperf3Result(TransferSpec spec, Iperf3Options options, String server, Local local, List<Iperf3RemoteStream> remote,
                 Optional<Boolean> serverReadAll, boolean bidir, boolean interrupted) {
        this.interrupted = interrupted;
        this.spec = spec;
        this.options = options;
        this.server = server;
        this.local = local;
        this.remote = List.copyOf(remote);
        this.serverReadAll = serverReadAll;
        this.bidir = bidir;
        this.notes = List.copyOf(notes());
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    /** @return the options of the run */
    public Iperf3Options options() {
        return options;
    }

    /** @return the server, {@code host:port} */
    public String server() {
        return server;
    }

    /** @return linerate's own counts */
    public Local local() {
        return local;
    }

    /** @return the server's results, one entry per stream */
    public List<Iperf3RemoteStream> remote() {
        return remote;
    }

    /** @return bytes the server counted, over all streams */
    public long remoteBytes() {
        return remote.stream().mapToLong(Iperf3RemoteStream::bytes).sum();
    }

    /** @return the server's {@code packets} over all streams (UDP: highest sequence received, or datagrams sent) */
    public long remotePackets() {
        return remote.stream().mapToLong(Iperf3RemoteStream::packets).sum();
    }

    /** @return the server's {@code errors} over all streams (UDP loss as iperf3 counts it) */
    public long remoteErrors() {
        return remote.stream().mapToLong(Iperf3RemoteStream::errors).sum();
    }

    /**
     * @return TCP, linerate sending: whether the server closed its streams having read every byte
     *     (a clean close) or not (a reset); empty when unknown or not applicable
     */
    public Optional<Boolean> serverReadAll() {
        return serverReadAll;
    }

    private boolean udp() {
        return spec.protocol() == Protocol.UDP;
    }

    /** @return datagrams the server received: its bytes over the payload (UDP, linerate sending) */
    public long remoteDatagramsReceived() {
        return remoteBytes() / spec.payloadBytes();
    }

    /**
     * @return UDP datagrams lost by linerate's count, loss at the tail included: sent less received
     *     by the server (linerate sending), or sent by the server less distinct received (reverse); 0 for TCP
     */
    public long lost() {
        if (!udp() || interrupted) {
            // interrupted: the server's counts were never exchanged, so no loss can be counted
            return 0;
        }
        return options.reverse() ? Math.max(0, remotePackets() - local.distinct())
                : Math.max(0, local.datagrams() - remoteDatagramsReceived());
    }

    /**
     * @return {@code iperf3_} then protocol and family, then {@code _reverse} when the server sent;
     *     one direction of a bidirectional test has no {@code _reverse} (its metrics carry the label
     *     {@code direction} instead, see {@link Iperf3BidirResult})
     */
    public String marker() {
        return "iperf3_" + spec.protocol().label() + spec.family().label() + (options.reverse() && !bidir ? "_reverse" : "");
    }

    /** @return whether this is one direction of a bidirectional test ({@link Iperf3Client#runBidir}) */
    public boolean bidir() {
        return bidir;
    }

    /**
     * @return whether the run was interrupted: linerate's counts are those until then, and the
     *     server's are absent (CLIENT_TERMINATE ends a test without exchanging results)
     */
    @Override
    public boolean interrupted() {
        return interrupted;
    }

    /** @return where the two ends' counts disagree, by how much and why, or why the server's are absent; empty when they agree */
    public List<String> notes() {
        if (notes != null) {
            return notes;
        }
        List<String> out = new ArrayList<>();
        if (interrupted) {
            out.add("interrupted: linerate ended the test with CLIENT_TERMINATE, as iperf3's client does on SIGINT, "
                    + "so the server's counts were not exchanged; linerate's are those until the interrupt");
            return out;
        }
        long remoteBytes = remoteBytes();
        if (!udp()) {
            if (!options.reverse() && remoteBytes != local.bytes()) {
                String why = serverReadAll.map(all -> all
                        ? "although it closed cleanly; the counts cannot be reconciled"
                        : "it closed its streams with bytes unread: iperf3's server stops reading at TEST_END (a TCP drain gives it time)")
                        .orElse("whether it left bytes unread is unknown");
                out.add(String.format(Locale.ROOT, "the server counted %d bytes received of the %d linerate sent (%d fewer): %s",
                        remoteBytes, local.bytes(), local.bytes() - remoteBytes, why));
            } else if (options.reverse() && remoteBytes != local.bytes()) {
                out.add(String.format(Locale.ROOT, "linerate received %d bytes; the server says it sent %d", local.bytes(), remoteBytes));
            }
            return out;
        }
        if (!options.reverse()) {
            long sent = local.datagrams();
            long tail = sent - remotePackets();
            if (tail != 0 || remoteErrors() != lost()) {
                out.add(String.format(Locale.ROOT, "loss: linerate counts %d of %d datagrams lost (sent less the %d the server "
                        + "received); iperf3 counts %d, as it does not count the %d sent after the highest sequence number it "
                        + "saw (%d): loss at the tail, including datagrams still in flight at TEST_END",
                        lost(), sent, remoteDatagramsReceived(), remoteErrors(), tail, remotePackets()));
            }
        } else {
            if (lost() > 0) {
                out.add(String.format(Locale.ROOT, "loss: the server sent %d datagrams, linerate received %d distinct: %d lost",
                        remotePackets(), local.distinct(), lost()));
            }
        }
        return out;
    }

    @Override
    public List<String> invalidReasons() {
        if (local.bytes() == 0) {
            return List.of(options.reverse() ? "no payload byte arrived from the server" : "no payload byte was sent");
        }
        return List.of();
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> out = new ArrayList<>();
        if (local.bytes() == 0) {
            return out;
        }
        String m = StreamMetrics.marker(spec.protocol().label(), spec.family() == io.linerate.core.AddressFamily.IPV6);
        boolean localSends = !options.reverse();
        Map<String, String> dir = labels(localSends);
        double t = local.nanos() / 1e9;
        if (local.nanos() > 0) {
            out.add(metric(localSends ? StreamMetrics.sent(m) : StreamMetrics.goodput(m), local.bytes() * 8.0 / t / 1e6,
                    StreamMetrics.MBPS, Metric.LOCAL, t, Better.HIGHER, dir));
        }
        double rs = remote.stream().mapToDouble(Iperf3RemoteStream::seconds).max().orElse(0);
        if (rs > 0) {
            out.add(metric(localSends ? StreamMetrics.goodput(m) : StreamMetrics.sent(m), remoteBytes() * 8.0 / rs / 1e6,
                    StreamMetrics.MBPS, StreamMetrics.REMOTE, t, Better.HIGHER, dir));
        }
        if (udp()) {
            if (localSends) {
                if (remotePackets() > 0) {
                    out.add(metric(StreamMetrics.lost(m), 100.0 * remoteErrors() / remotePackets(), "%", StreamMetrics.REMOTE, t,
                            Better.LOWER, dir));
                    double j = remote.stream().mapToDouble(Iperf3RemoteStream::jitterSeconds).average().orElse(0);
                    out.add(metric(StreamMetrics.jitter(m), j * 1e3, "ms", StreamMetrics.REMOTE, t, Better.LOWER, dir).asAdvisory());
                }
            } else {
                if (remotePackets() > 0) {
                    out.add(metric(StreamMetrics.lost(m), 100.0 * lost() / remotePackets(), "%", Metric.LOCAL, t, Better.LOWER, dir));
                }
                local.jitterNanos().ifPresent(j ->
                        out.add(metric(StreamMetrics.jitter(m), j / 1e6, "ms", Metric.LOCAL, t, Better.LOWER, dir).asAdvisory()));
            }
        }
        return out;
    }

    /**
     * @return {@code direction}, and with {@code -P N} for N &gt; 1 {@code stream=sum} and {@code streams=N}: these
     *     metrics sum the streams, as linerate's agent labels its sums and the gate labels iperf3's {@code -J} sums
     */
    private Map<String, String> labels(boolean localSends) {
        Map<String, String> l = new java.util.TreeMap<>();
        l.put(StreamMetrics.DIRECTION, StreamMetrics.direction(localSends));
        if (options.parallel() > 1) {
            l.put(StreamMetrics.STREAM, StreamMetrics.SUM);
            l.put(StreamMetrics.STREAMS, Integer.toString(options.parallel()));
        }
        return l;
    }

    private static Metric metric(String name, double v, String unit, String host, double t, Better better,
                                 Map<String, String> labels) {
        return new Metric(name, v, unit, host, t, labels, better);
    }

    @Override
    public JsonObject detailJson() {
        JsonObject d = PeerResultDetail.head("iperf3", server, marker(), spec);
        d.put("reverse", options.reverse());
        d.put("bidir", bidir);
        d.put("parallel", options.parallel());
        d.put("udp_counters_64bit", options.udpCounters64Bit());
        d.put("tcp_drain_s", options.tcpDrain().toNanos() / 1e9);
        JsonObject l = JsonObject.create().put("host", Metric.LOCAL).put("bytes", local.bytes())
                .put("seconds", local.nanos() / 1e9);
        if (udp()) {
            l.put(options.reverse() ? "datagrams_received" : "datagrams_sent", local.datagrams());
            if (options.reverse()) {
                l.put("distinct", local.distinct()).put("reordered", local.reordered()).put("duplicates", local.duplicates())
                        .put("lost", lost()).put("jitter_ms", local.jitterNanos().isPresent()
                                ? OptionalDouble.of(local.jitterNanos().getAsDouble() / 1e6) : OptionalDouble.empty());
            } else if (interrupted) {
                l.putNull("lost"); // the server's count, which it takes, was not exchanged
            } else {
                l.put("lost", lost());
            }
        }
        d.put("local", l);
        List<JsonObject> streams = new ArrayList<>();
        for (Iperf3RemoteStream s : remote) {
            streams.add(JsonObject.create().put("id", s.id()).put("bytes", s.bytes()).put("packets", s.packets())
                    .put("errors", s.errors()).put("jitter_ms", s.jitterSeconds() * 1e3).put("retransmits", s.retransmits())
                    .put("seconds", s.seconds()));
        }
        JsonObject r = JsonObject.create().put("host", "remote");
        if (interrupted) {
            // CLIENT_TERMINATE ends a test without EXCHANGE_RESULTS: the server's counts are unknown, not 0
            r.putNull("bytes").put("exchanged", false);
        } else {
            r.put("bytes", remoteBytes());
            if (udp()) {
                r.put("packets", remotePackets()).put("errors", remoteErrors());
            }
        }
        r.putObjects("streams", streams);
        d.put("remote", r);
        if (serverReadAll.isPresent()) {
            d.put("server_read_all", serverReadAll.get());
        } else {
            d.putNull("server_read_all");
        }
        d.put("interrupted", interrupted);
        d.putStrings("notes", notes);
        return d;
    }
}
