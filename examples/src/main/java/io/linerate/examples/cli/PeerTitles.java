package io.linerate.examples.cli;

import io.linerate.core.AgentPeer;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.MeasurementResult;
import io.linerate.core.PeerDirection;
import io.linerate.core.TransferSpec;
import io.linerate.peers.iperf2.Iperf2Result;
import io.linerate.peers.iperf3.Iperf3BidirResult;
import io.linerate.peers.iperf3.Iperf3Result;
import java.util.List;

/**
 * The first line of {@code stream}'s text and the diagnostics of its KTAP document for a run with a
 * peer: who the peer is and how the stream runs, from the spec's endpoint (its address only: an
 * agent's secret is never named), and the notes of the peer's result.
 */
final class PeerTitles {
    private PeerTitles() {}

    /** @return the text header, without its leading {@code "# "} */
    static String text(TransferSpec spec) {
        String v = "linerate " + Linerate.version() + " stream";
        if (spec.endpoint() instanceof AgentPeer a) {
            if (a.direction() == PeerDirection.BOTH) {
                return v + " with " + a + ", both directions at once: " + spec;
            }
            return v + " with " + a + ", " + (a.direction() == PeerDirection.REVERSE ? "reverse (the agent sends)"
                    : "forward (this host sends)") + (a.streams() > 1 ? ", " + a.streams() + " parallel streams" : "")
                    + ": " + spec;
        }
        if (spec.endpoint() instanceof Iperf3Peer p) {
            boolean both = p.direction() == PeerDirection.BOTH;
            return v + " against iperf3 at " + p + ": " + spec + (p.direction() == PeerDirection.REVERSE ? " reverse" : "")
                    + (both ? " both directions at once" : "") + " parallel=" + p.parallel() + (both ? " each way" : "");
        }
        if (spec.endpoint() instanceof Iperf2Peer p) {
            return v + " against iperf 2 at " + p + ": " + spec;
        }
        return v + ": " + spec;
    }

    /**
     * @return the notes a peer's result holds, where its two ends disagree or what the peer does not
     *     report, and why; none for other results
     */
    static List<String> notes(MeasurementResult result) {
        if (result instanceof Iperf3BidirResult r) {
            return r.notes();
        }
        if (result instanceof Iperf3Result r) {
            return r.notes();
        }
        if (result instanceof Iperf2Result r) {
            return r.notes();
        }
        return List.of();
    }

    /** @return the KTAP document's diagnostic line, without its leading {@code "# "} */
    static String ktap(TransferSpec spec) {
        String v = "linerate " + Linerate.version() + " stream";
        if (spec.endpoint() instanceof AgentPeer a) {
            if (a.direction() == PeerDirection.BOTH) {
                return v + " with " + a + ", both directions at once: " + spec;
            }
            return v + " with " + a + (a.direction() == PeerDirection.REVERSE ? ", reverse" : "")
                    + (a.streams() > 1 ? ", " + a.streams() + " parallel streams" : "") + ": " + spec;
        }
        if (spec.endpoint() instanceof Iperf3Peer p) {
            return v + " against iperf3 at " + p + ": " + spec + (p.direction() == PeerDirection.REVERSE ? " reverse" : "")
                    + (p.direction() == PeerDirection.BOTH ? " both directions at once" : "");
        }
        return text(spec);
    }
}
