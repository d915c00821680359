package io.linerate.examples.cli;

import io.linerate.core.AgentPeer;
import io.linerate.core.IntervalSample;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.PeerDirection;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.TransferFormat;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code stream}'s text, as iperf prints it: a header naming the stream and its peer, an interval
 * line per interval (this host's own count; with several streams or both directions each line
 * tagged {@code [  i]}, {@code [fwd]} or {@code [rev]}), a separator and the summary of whatever
 * result the run gave ({@link AgentTextSummary}, {@link IperfTextSummary}, or a stream in this JVM's
 * summary and applied socket options).
 */
final class StreamTextWriter implements StreamWriter {
    private final PrintWriter out;
    private final TransferSpec spec;
    private final String payloadNote;
    private final boolean udp;

    StreamTextWriter(PrintWriter out, TransferSpec spec, String payloadNote) {
        this.out = out;
        this.spec = spec;
        this.payloadNote = payloadNote;
        this.udp = spec.protocol() == Protocol.UDP;
    }

    @Override
    public void start() {
        out.println("# " + PeerTitles.text(spec));
        if (spec.endpoint().remoteAddress().isEmpty()) {
            out.println("# payload " + spec.payloadBytes() + " B: " + payloadNote);
        }
        out.flush();
    }

    @Override
    public void onInterval(IntervalSample s) {
        synchronized (out) {
            out.println(TransferFormat.intervalLine(s, udp));
            out.flush();
        }
    }

    @Override
    public void onInterval(int stream, PeerDirection direction, IntervalSample s) {
        String tag = spec.endpoint() instanceof AgentPeer a && a.streams() > 1
                ? String.format(Locale.ROOT, "[%3d] ", stream)
                : isBoth() ? (direction == PeerDirection.FORWARD ? "[fwd] " : "[rev] ") : "";
        String line = peerLine(s, udp, direction == PeerDirection.FORWARD, spec.endpoint() instanceof AgentPeer);
        synchronized (out) {
            out.println(tag + line);
            out.flush();
        }
    }

    private boolean isBoth() {
        return spec.endpoint() instanceof AgentPeer a && a.direction() == PeerDirection.BOTH
                || spec.endpoint() instanceof Iperf3Peer p && p.direction() == PeerDirection.BOTH;
    }

    /**
     * A UDP sender here cannot know loss or jitter (the peer receives): its interval lines say how
     * many datagrams it sent and n/a for those; the summary takes loss from the receiver's count. A
     * receiver here counts them itself against linerate's agent; against iperf3 its loss and jitter
     * are counted once, in the summary.
     */
    static String peerLine(IntervalSample s, boolean udp, boolean localSends, boolean agent) {
        if (!udp || !localSends && agent) {
            return TransferFormat.intervalLine(s, udp);
        }
        String base = TransferFormat.intervalLine(s, false);
        String omitted = "  (omitted)";
        boolean o = base.endsWith(omitted);
        return (o ? base.substring(0, base.length() - omitted.length()) : base)
                + String.format(Locale.ROOT, localSends
                        ? "  %d datagrams sent  jitter n/a  loss n/a (the receiver counts it)"
                        : "  %d datagrams received  jitter n/a  loss n/a (counted in the summary)", s.datagrams())
                + (o ? omitted : "");
    }

    @Override
    public void end(MeasurementResult result) {
        out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
        if (result instanceof TransferResult r) {
            local(r);
        } else if (!AgentTextSummary.write(out, result) && !IperfTextSummary.write(out, result)) {
            for (Metric m : result.metrics()) {
                out.println(String.format(Locale.ROOT, "%-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
            }
            result.invalidReasons().forEach(n -> out.println("# invalid: " + n));
        }
        out.flush();
    }

    private void local(TransferResult r) {
        out.println(TransferFormat.summaryLine(r));
        TransferFormat.receiverNote(r).ifPresent(out::println);
        out.println(String.format(Locale.ROOT,
                "# applied: tclass 0x%02x (requested 0x%02x), sndbuf %d B (requested %d), rcvbuf %d B (requested %d), nodelay %s%s",
                r.options().trafficClassApplied(), r.options().trafficClassRequested(),
                r.options().sendBufferApplied(), r.options().sendBufferRequested(),
                r.options().receiveBufferApplied(), r.options().receiveBufferRequested(),
                r.options().noDelayApplied(), udp ? "" : r.options().tcpMss()
                        .map(m -> ", mss " + m.bytes() + " B (" + m.derivation() + ")").orElse(", mss unknown")));
        // where the transport read the sender's TCP_INFO: iperf3's Retr and Cwnd, and the RTT
        TcpInfoText.end(out, "", "sender", r);
        DataPathText.print(out, "", r);
    }
}
