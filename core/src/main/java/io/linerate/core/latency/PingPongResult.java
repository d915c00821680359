package io.linerate.core.latency;

import io.linerate.core.sink.LatencyJson;
import io.linerate.core.AppliedOptions;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.PingPongMulticast;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.fulllog.FullLogSummary;
import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.ResultJson;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a ping-pong sweep measured.
 *
 * @param spec what was asked for
 * @param report the per-size statistics and their output formats
 * @param options socket options as requested and as read back from the client's socket (all 0
 *     for pipes; no traffic class or TCP_NODELAY for Unix sockets)
 * @param sizes per-size counts, in the order run
 * @param startEpochMillis when the run started, ms since the epoch, for raw logs
 * @param fullLog what the full log wrote, when the spec asked for one
 * @param interrupted whether an interrupt of the client's thread stopped the sweep early: the
 *     sizes hold what was measured until then, the last one cut short
 * @param multicast the multicast options as read back from both sockets, when the spec asked for
 *     multicast ({@link PingPongSpec#multicast()})
 * @param tcpInfo for TCP, the client's and the echo server's {@code TCP_INFO} at the end of the
 *     sweep, or why each could not be read; empty for the other protocols, which have none
 */
public record PingPongResult(PingPongSpec spec, LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                             long startEpochMillis, Optional<FullLogSummary> fullLog, boolean interrupted,
                             Optional<PingPongMulticast.Applied> multicast, Optional<LatencyTcpInfo> tcpInfo)
        implements MeasurementResult {
    /** Copies the list. */
    public PingPongResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(report, "report");
        Objects.requireNonNull(options, "options");
        sizes = List.copyOf(sizes);
        Objects.requireNonNull(fullLog, "fullLog");
        Objects.requireNonNull(multicast, "multicast");
        Objects.requireNonNull(tcpInfo, "tcpInfo");
    }

    /** A result without {@code TCP_INFO}. */
    public PingPongResult(PingPongSpec spec, LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                          long startEpochMillis, Optional<FullLogSummary> fullLog, boolean interrupted,
                          Optional<PingPongMulticast.Applied> multicast) {
        this(spec, report, options, sizes, startEpochMillis, fullLog, interrupted, multicast, Optional.empty());
    }

    /** A result without multicast read-backs. */
    public PingPongResult(PingPongSpec spec, LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                          long startEpochMillis, Optional<FullLogSummary> fullLog, boolean interrupted) {
        this(spec, report, options, sizes, startEpochMillis, fullLog, interrupted, Optional.empty());
    }

    /** A result of a whole sweep. */
    public PingPongResult(PingPongSpec spec, LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                          long startEpochMillis, Optional<FullLogSummary> fullLog) {
        this(spec, report, options, sizes, startEpochMillis, fullLog, false);
    }

    /** A result of a whole sweep without a full log. */
    public PingPongResult(PingPongSpec spec, LatencyReport report, AppliedOptions options, List<SizeCounts> sizes,
                          long startEpochMillis) {
        this(spec, report, options, sizes, startEpochMillis, Optional.empty());
    }

    /**
     * Counts of one size.
     *
     * @param sizeBytes message size, bytes
     * @param roundTrips round trips completed, warm-up included
     * @param measured round trips in the measured part (the samples of the statistics)
     * @param clientAllocatedBytes heap bytes the client thread allocated in the measured part, -1
     *     when the JVM does not count them
     * @param serverAllocatedBytes heap bytes the echo server's thread allocated in the measured part, -1
     *     when unknown
     * @param staleAnswers datagram answers skipped because they carried an earlier round trip's number
     *     (a duplicated datagram, or one that came after its round trip timed out); 0 for a stream
     */
    public record SizeCounts(int sizeBytes, long roundTrips, long measured, long clientAllocatedBytes,
                             long serverAllocatedBytes, long staleAnswers) {}

    /** @return round trips completed over all sizes, warm-up included */
    public long roundTrips() {
        return sizes.stream().mapToLong(SizeCounts::roundTrips).sum();
    }

    /**
     * @param facts the run facts to state instead (a command line states the options as typed)
     * @return this result with the report's facts replaced
     */
    public PingPongResult withFacts(RunFacts facts) {
        LatencyReport r = new LatencyReport(facts, report.mode(), report.percentile(), report.sizes(), report.notes(), report.affinity());
        return new PingPongResult(spec, r, options, sizes, startEpochMillis, fullLog, interrupted, multicast, tcpInfo);
    }

    /**
     * @param info both ends' {@code TCP_INFO}, or why each is missing
     * @return this result with {@link #tcpInfo()} replaced
     */
    public PingPongResult withTcpInfo(LatencyTcpInfo info) {
        return new PingPongResult(spec, report, options, sizes, startEpochMillis, fullLog, interrupted, multicast,
                Optional.of(info));
    }

    /**
     * @param serverCpus the echo thread's CPU set as its host read it back; empty when it did not say
     * @param note a remark on the server's pinning (such as why its set is unknown); empty for none
     * @return this result with the server's side of the report's {@link LatencyReport#affinity()}
     *     replaced (the client's kept) and the note added to the report's notes
     */
    public PingPongResult withServerCpus(Optional<String> serverCpus, Optional<String> note) {
        Optional<String> client = report.affinity().flatMap(AffinityReadBack::client);
        List<String> notes = new java.util.ArrayList<>(report.notes());
        note.ifPresent(notes::add);
        LatencyReport r = new LatencyReport(report.facts(), report.mode(), report.percentile(), report.sizes(), notes,
                Optional.of(new AffinityReadBack(client, serverCpus)));
        return new PingPongResult(spec, r, options, sizes, startEpochMillis, fullLog, interrupted, multicast, tcpInfo);
    }

    /**
     * @return one reason per message size of which no round trip was measured (its statistics do
     *     not exist); empty when every size has samples
     */
    @Override
    public List<String> invalidReasons() {
        List<String> out = new ArrayList<>();
        for (SizeLatency s : report.sizes()) {
            if (s.roundTrips().count() == 0) {
                out.add("no round trip of " + s.sizeBytes() + "-byte messages was measured");
            }
        }
        return out;
    }

    /**
     * @return {@link LatencyReport#metrics} labelled with {@link #labels()}: per size latency mean,
     *     min, p50, the percentile, max and standard deviation in ns, each stamped with the seconds
     *     from the start of the run to the end of its size's measured part
     */
    @Override
    public List<Metric> metrics() {
        return report.metrics(labels());
    }

    /**
     * The metrics' labels: {@code protocol} and the client's {@code muxer}, and the client's
     * {@code idle} strategy only when it is not its muxer's own, so that a series measured before
     * idle strategies existed keeps its key.
     *
     * @return the labels, in that order
     */
    public Map<String, String> labels() {
        Map<String, String> l = new LinkedHashMap<>();
        l.put("protocol", spec.protocol().label());
        l.put("muxer", spec.clientMuxer().label());
        spec.idleOf(spec.clientMuxer()).filter(i -> !spec.clientMuxer().defaultIdle().equals(Optional.of(i)))
                .ifPresent(i -> l.put("idle", i.label()));
        return l;
    }

    /**
     * @return the report's JSON ({@link LatencyJson#latency}) with {@code protocol}, {@code muxer},
     *     {@code serv_muxer}, the socket options in the schema of every result that reports them
     *     ({@link ResultJson#options}), {@code idle}/{@code serv_idle} for a polling end,
     *     {@code full_log} with a full log, {@code connect} for udp and {@code multicast} (the
     *     group, the interfaces and IP_MULTICAST_LOOP as requested and as read back) for a
     *     multicast ping-pong, and {@code bindtodev} (the interface both ends' sockets were bound
     *     to, read back) when there is one, and for TCP both ends' {@code TCP_INFO}
     *     ({@link LatencyTcpInfo#putJson}: {@code tcp_info} and {@code tcp_info_unavailable})
     */
    @Override
    public JsonObject detailJson() {
        JsonObject j = LatencyJson.latency(report)
                .put("protocol", spec.protocol().label())
                .put("muxer", spec.clientMuxer().label())
                .put("serv_muxer", spec.serverMuxer().label())
                .put("options", ResultJson.options(options, spec.protocol() == PingPongProtocol.TCP));
        spec.idleOf(spec.clientMuxer()).ifPresent(i -> j.put("idle", i.label()));
        spec.idleOf(spec.serverMuxer()).ifPresent(i -> j.put("serv_idle", i.label()));
        fullLog.ifPresent(l -> j.put("full_log", ResultJson.fullLog(l)));
        if (spec.protocol() == PingPongProtocol.UDP) {
            j.put("connect", spec.connect());
        }
        spec.multicast().ifPresent(m -> j.put("multicast", multicastJson(m)));
        spec.bindToDevice().ifPresent(d -> j.put("bindtodev", d));
        tcpInfo.ifPresent(t -> t.putJson(j));
        return j;
    }

    private JsonObject multicastJson(PingPongMulticast m) {
        JsonObject o = JsonObject.create().put("group", m.group().getHostAddress());
        m.clientInterface().ifPresent(i -> o.put("client_interface_requested", i));
        m.serverInterface().ifPresent(i -> o.put("server_interface_requested", i));
        o.put("loop_requested", m.loop());
        multicast.ifPresent(a -> o.put("client_interface_applied", a.clientInterface())
                .put("server_interface_applied", a.serverInterface())
                .put("client_loop_applied", a.clientLoop())
                .put("server_loop_applied", a.serverLoop()));
        return o;
    }

    /** @return one line saying which options were applied, for a {@code #} header line */
    public String appliedDescription() {
        PingPongProtocol protocol = spec.protocol();
        AppliedOptions o = options;
        if (protocol == PingPongProtocol.PIPE) {
            return "pipe: no socket options";
        }
        String buffers = String.format(Locale.ROOT, "sndbuf %d B (requested %d), rcvbuf %d B (requested %d)",
                o.sendBufferApplied(), o.sendBufferRequested(), o.receiveBufferApplied(), o.receiveBufferRequested());
        if (!protocol.ip()) {
            return buffers + ", no traffic class or TCP_NODELAY on Unix sockets";
        }
        String tc = String.format(Locale.ROOT, "tclass 0x%02x (requested 0x%02x)", o.trafficClassApplied(),
                o.trafficClassRequested());
        String device = spec.bindToDevice().map(d -> ", bindtodev " + d).orElse("");
        return protocol == PingPongProtocol.TCP
                ? tc + ", " + buffers + ", nodelay " + o.noDelayApplied() + " (requested " + o.noDelayRequested() + "), "
                        + o.tcpMss().map(m -> "mss " + m.bytes() + " B (" + m.derivation() + ")").orElse("mss unknown") + device
                : tc + ", " + buffers + ", connect " + spec.connect() + multicastDescription() + device;
    }

    private String multicastDescription() {
        if (spec.multicast().isEmpty()) {
            return "";
        }
        PingPongMulticast m = spec.multicast().get();
        String applied = multicast.map(a -> String.format(Locale.ROOT, " on %s (client) and %s (server), loop %s "
                        + "(client) and %s (server)", a.clientInterface(), a.serverInterface(), a.clientLoop(),
                a.serverLoop())).orElse("");
        return ", mcast " + m.group().getHostAddress() + applied + " (requested loop " + m.loop() + ")";
    }
}
