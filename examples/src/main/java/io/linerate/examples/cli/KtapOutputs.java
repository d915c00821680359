package io.linerate.examples.cli;

import io.linerate.core.IntervalSample;
import io.linerate.core.MeasurementResult;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.latency.LatencyReport;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.TransferFormat;
import io.linerate.peers.agent.client.RemotePingPongResult;
import java.io.PrintWriter;
import java.util.List;

/**
 * What {@code --ktap} writes for the measuring commands: one whole KTAP document, one test per run
 * whose metric lines come before its result line, so that the gate keys them by that test
 * ({@code stream}: the marker, such as {@code tcp4}; {@code pingpong}: {@code pingpong_<protocol>};
 * {@code rr}: {@code tcp_rr} or {@code tcp_crr}). A run of {@code --repeat N} ({@link RunWriter})
 * writes its test into the document of all N, which ends after the last; an interrupted run is
 * {@code not ok N test # interrupted}. The commands and the golden-file tests call the same methods.
 */
final class KtapOutputs {
    private KtapOutputs() {}

    /**
     * Starts {@code stream}'s document: the plan of one test, the spec and where the payload came
     * from; {@link #streamInterval} lines follow while it runs.
     */
    static KtapDocument streamStart(PrintWriter out, TransferSpec spec, String payloadNote) {
        KtapDocument doc = RunWriter.ktap(out);
        doc.diagnostic("linerate " + Linerate.version() + " stream: " + spec);
        doc.diagnostic("payload " + spec.payloadBytes() + " B: " + payloadNote);
        return doc;
    }

    /** Writes one iperf-style interval line as a diagnostic. */
    static void streamInterval(KtapDocument doc, IntervalSample s, boolean udp) {
        doc.diagnostic(TransferFormat.intervalLine(s, udp));
    }

    /**
     * Ends {@code stream}'s document: the summary line, the result's {@link TransferResult#metrics()},
     * {@code ok 1 <marker>} or {@code not ok 1 <marker> # invalid: reasons}, and the totals.
     */
    static void streamEnd(KtapDocument doc, TransferResult r) {
        doc.diagnostic(TransferFormat.summaryLine(r));
        r.metrics().forEach(doc.metrics()::accept);
        result(doc, r.marker(), r);
    }

    /**
     * {@code pingpong}'s document: for nio's ping-pong what the values are and the options applied,
     * the histogram's precision and the notes, and against a peer agent its own counts
     * ({@code remote: the agent at HOST:PORT echoed N times, B bytes, ...}); then the result's
     * {@link MeasurementResult#metrics} (per size, labelled with the protocol and the client's muxer),
     * {@code ok 1 pingpong_<protocol>} or {@code not ok 1 pingpong_<protocol> # invalid: reasons},
     * and the totals.
     */
    static void pingpong(PrintWriter out, PingPongSpec spec, MeasurementResult result) {
        KtapDocument doc = RunWriter.ktap(out);
        // against a peer agent, this host's sweep is the remote result's local one
        PingPongResult r = result instanceof RemotePingPongResult remote ? remote.local()
                : result instanceof PingPongResult p ? p : null;
        if (r != null) {
            LatencyReport report = r.report();
            doc.diagnostic("linerate pingpong " + spec.protocol().label() + ": values are " + spec.mode().label()
                    + " in ns; applied: " + r.appliedDescription());
            doc.diagnostic("precision: " + report.precision());
            for (String n : report.notes()) {
                doc.diagnostic("note: " + n);
            }
            r.fullLog().ifPresent(l -> doc.diagnostic(l.describe()));
        }
        if (result instanceof RemotePingPongResult remote) {
            doc.diagnostic("remote: the agent at " + spec.endpoint() + " echoed " + remote.agentEchoes() + " times, "
                    + remote.agentEchoedBytes() + " bytes, for " + remote.local().roundTrips() + " round trips of "
                    + remote.bytesSent() + " bytes timed on this host's clock, warm-up included");
        }
        result.metrics().forEach(doc.metrics()::accept);
        result(doc, spec.testName(), result);
    }

    /**
     * {@code rr}'s document: for nio's request/response the histogram's precision, the notes and
     * the server's own counts ({@link #rrServer}); then the result's {@link MeasurementResult#metrics}
     * (stamped with the measured window's length), {@code ok 1 <test>} or {@code not ok 1 <test> # invalid: reasons}, and the totals.
     */
    static void rr(PrintWriter out, RrSpec spec, MeasurementResult result) {
        KtapDocument doc = RunWriter.ktap(out);
        if (result instanceof RrResult r) {
            doc.diagnostic("precision: " + r.report().precision());
            for (String n : r.report().notes()) {
                doc.diagnostic("note: " + n);
            }
            doc.diagnostic(rrServer(r));
        }
        result.metrics().forEach(doc.metrics()::accept);
        result(doc, spec.testName(), result);
    }

    /**
     * @return whose server counts a request/response result holds and the counts, with the
     *     transactions the flows completed over the whole run: {@code remote: the agent at HOST:PORT
     *     accepted N connections and served M responses; C transactions completed here, warm-up
     *     included}, or {@code server: the server in this JVM accepted ...}
     */
    static String rrServer(RrResult r) {
        return (r.remote() ? "remote: the agent at " + r.spec().endpoint() : "server: the server in this JVM")
                + " accepted " + r.accepts() + " connections and served " + r.served() + " responses; " + r.completed()
                + " transactions completed here, warm-up included";
    }

    /**
     * The document of any one result under its test ({@link io.linerate.core.MeasurementSpec#testName()},
     * the same on every road): a diagnostic line, the result's {@link MeasurementResult#metrics}
     * (none when it is invalid), {@code ok 1 <test>} or {@code not ok 1 <test> # invalid: reasons},
     * and the totals; for runs against a peer.
     */
    static void single(PrintWriter out, String diagnostic, MeasurementResult result) {
        single(out, List.of(diagnostic), result);
    }

    /** As {@link #single(PrintWriter, String, MeasurementResult)}, with several diagnostic lines, in order. */
    static void single(PrintWriter out, List<String> diagnostics, MeasurementResult result) {
        KtapDocument doc = RunWriter.ktap(out);
        diagnostics.forEach(doc::diagnostic);
        result.metrics().forEach(doc.metrics()::accept);
        result(doc, result.spec().testName(), result);
    }

    /**
     * Writes the run's result line: {@code ok N test}, {@code not ok N test # interrupted}, or
     * {@code not ok N test # invalid: reasons}; and the totals after the document's last planned test.
     */
    static void result(KtapDocument doc, String test, MeasurementResult r) {
        if (r.interrupted()) {
            doc.fail(test, "interrupted");
        } else if (r.valid()) {
            doc.ok(test);
        } else {
            doc.fail(test, "invalid: " + String.join("; ", r.invalidReasons()));
        }
        KtapDocument.Totals t = doc.totals();
        if (t.pass() + t.fail() + t.xfail() + t.xpass() + t.skip() + t.error() == doc.planned()) {
            doc.end();
        }
    }
}
