package io.linerate.core.latency;

import io.linerate.core.sink.LatencyJson;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.RrSpec;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a request/response run measured.
 *
 * @param spec what was asked for
 * @param report rates and latency over the measured window, with their output formats
 * @param completed transactions completed over the whole run (warm-up and the tail after the
 *     window included), counted by the flows
 * @param accepts connections the server accepted over the whole run, as the server counts them (a
 *     peer agent's count when the server ran there, {@link #remote()})
 * @param served responses the server sent over the whole run, as the server counts them
 * @param flowAllocatedBytes per flow, heap bytes its thread allocated over its transactions in
 *     the measured window (from the end of its first to the end of its first after it), -1 when
 *     the JVM does not count them; 0 in steady state for rr (crr opens a socket per transaction)
 * @param interrupted whether an interrupt of the coordinating thread closed the window before its
 *     duration: the rates and latency cover the shorter window
 * @param tcpInfo the flows' and the server's {@code TCP_INFO} at the end of the window, or why
 *     each could not be read ({@link LatencyTcpInfo}); empty where the run did not read it
 */
public record RrResult(RrSpec spec, RrReport report, long completed, long accepts, long served,
                       List<Long> flowAllocatedBytes, boolean interrupted, Optional<LatencyTcpInfo> tcpInfo)
        implements MeasurementResult {
    /** Copies the list. */
    public RrResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(report, "report");
        flowAllocatedBytes = List.copyOf(flowAllocatedBytes);
        Objects.requireNonNull(tcpInfo, "tcpInfo");
    }

    /** A result without {@code TCP_INFO}. */
    public RrResult(RrSpec spec, RrReport report, long completed, long accepts, long served,
                    List<Long> flowAllocatedBytes, boolean interrupted) {
        this(spec, report, completed, accepts, served, flowAllocatedBytes, interrupted, Optional.empty());
    }

    /** A result without allocation counts. */
    public RrResult(RrSpec spec, RrReport report, long completed, long accepts, long served) {
        this(spec, report, completed, accepts, served, List.of());
    }

    /** A result of a run to its end. */
    public RrResult(RrSpec spec, RrReport report, long completed, long accepts, long served,
                    List<Long> flowAllocatedBytes) {
        this(spec, report, completed, accepts, served, flowAllocatedBytes, false);
    }

    /**
     * @param facts the run facts to state instead (a command line states the options as typed)
     * @return this result with the report's facts replaced
     */
    public RrResult withFacts(RunFacts facts) {
        RrReport r = new RrReport(facts, report.test(), report.flowTransactions(), report.windowNanos(),
                report.latency(), report.percentile(), report.notes());
        return new RrResult(spec, r, completed, accepts, served, flowAllocatedBytes, interrupted, tcpInfo);
    }

    /**
     * @param info both ends' {@code TCP_INFO}, or why each is missing
     * @return this result with {@link #tcpInfo()} replaced
     */
    public RrResult withTcpInfo(LatencyTcpInfo info) {
        return new RrResult(spec, report, completed, accepts, served, flowAllocatedBytes, interrupted, Optional.of(info));
    }

    /**
     * @return why the rates and latency do not exist: a measured window of no length, or one in
     *     which no transaction completed; empty otherwise
     */
    @Override
    public List<String> invalidReasons() {
        List<String> out = new ArrayList<>();
        if (report.windowNanos() == 0) {
            out.add("the measured window has no length, so there is no rate");
        }
        if (report.transactions() == 0) {
            out.add("no transaction completed in the measured window");
        }
        return out;
    }

    /**
     * @return {@link RrReport#metrics} (transactions/s in total and per flow, latency p50, the
     *     percentile and mean in ns), stamped with the measured window's length in seconds
     */
    @Override
    public List<Metric> metrics() {
        return report.metrics(report.windowNanos() / 1e9);
    }

    /**
     * @return the report's JSON ({@link LatencyJson#rr}) with {@code request_bytes},
     *     {@code response_bytes}, {@code rate} (the target in transactions/s, 0 for closed loop),
     *     {@code muxer}, for a polling muxer {@code idle}, and {@code server}: the server's own
     *     counts over the whole run, {@code {"accepts": connections, "served": responses,
     *     "remote": whether they are a peer agent's (the spec's endpoint is remote) rather than
     *     this JVM's server's}}, then both ends' {@code TCP_INFO} where it was read or tried
     *     ({@link LatencyTcpInfo#putJson}: {@code tcp_info} and {@code tcp_info_unavailable})
     */
    @Override
    public JsonObject detailJson() {
        JsonObject j = LatencyJson.rr(report)
                .put("request_bytes", spec.requestBytes())
                .put("response_bytes", spec.responseBytes())
                .put("rate", spec.rate())
                .put("muxer", spec.muxer().label());
        spec.pollingIdle().ifPresent(i -> j.put("idle", i.label()));
        j.put("server", JsonObject.create().put("accepts", accepts).put("served", served)
                .put("remote", remote()));
        tcpInfo.ifPresent(t -> t.putJson(j));
        return j;
    }

    /** @return whether the server ran on a peer agent (the spec's endpoint is remote), not in this JVM */
    public boolean remote() {
        return spec.endpoint().remoteAddress().isPresent();
    }
}
