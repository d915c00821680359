package io.linerate.examples.cli;

import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.peers.iperf2.Iperf2Result;
import io.linerate.peers.iperf2.Iperf2ServerReport;
import io.linerate.peers.iperf3.Iperf3BidirResult;
import io.linerate.peers.iperf3.Iperf3Result;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The text summary of a stream against an iperf3 or iperf 2 server: what linerate moved
 * ({@code local}), what the server counted ({@code remote}), the metrics of both, the notes on
 * where the two disagree and why the result is invalid, if it is; for iperf3's bidirectional test
 * each direction's lines tagged {@code [fwd]} or {@code [rev]}.
 */
final class IperfTextSummary {
    private IperfTextSummary() {}

    /** @return whether {@code result} is an iperf3 or iperf 2 result and was written */
    static boolean write(PrintWriter out, MeasurementResult result) {
        if (result instanceof Iperf3BidirResult b) {
            ends(out, "[fwd] ", b.forward());
            ends(out, "[rev] ", b.reverse());
            for (Metric m : b.metrics()) {
                String tag = "forward".equals(m.labels().get("direction")) ? "[fwd] " : "[rev] ";
                out.println(String.format(Locale.ROOT, "%s%-6s %s = %.3f %s", tag, m.host(), m.name(), m.value(), m.unit()));
            }
            b.notes().forEach(n -> out.println("# note: " + n));
        } else if (result instanceof Iperf3Result one) {
            ends(out, "", one);
            metrics(out, one);
            one.notes().forEach(n -> out.println("# note: " + n));
        } else if (result instanceof Iperf2Result r) {
            iperf2(out, r);
        } else {
            return false;
        }
        result.invalidReasons().forEach(n -> out.println("# invalid: " + n));
        return true;
    }

    private static void metrics(PrintWriter out, MeasurementResult r) {
        for (Metric m : r.metrics()) {
            out.println(String.format(Locale.ROOT, "%-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
        }
    }

    /** One direction's two ends, each line after {@code tag}: what linerate moved, what the server counted. */
    private static void ends(PrintWriter out, String tag, Iperf3Result r) {
        boolean udp = r.spec().protocol() == Protocol.UDP;
        boolean reverse = r.options().reverse();
        out.println(String.format(Locale.ROOT, "%slocal  %s %d bytes in %.3f s%s", tag, reverse ? "received" : "sent",
                r.local().bytes(), r.local().nanos() / 1e9, udp ? ", " + r.local().datagrams() + " datagrams" : ""));
        if (r.interrupted()) {
            out.println(tag + "remote " + (reverse ? "sent" : "received") + " n/a: the test was interrupted, and the "
                    + "server's counts were not exchanged");
            return;
        }
        out.println(String.format(Locale.ROOT, "%sremote %s %d bytes%s", tag, reverse ? "sent" : "received", r.remoteBytes(),
                udp ? ", packets " + r.remotePackets() + ", errors " + r.remoteErrors() : ""));
    }

    private static void iperf2(PrintWriter out, Iperf2Result r) {
        out.println(String.format(Locale.ROOT, "local  sent %d bytes in %.3f s, %d %s", r.local().bytes(),
                r.local().nanos() / 1e9, r.local().datagrams(), r.header().isPresent() ? "datagrams" : "writes"));
        if (r.remote().isPresent()) {
            Iperf2ServerReport rep = r.remote().get();
            out.println(String.format(Locale.ROOT, "remote received %d bytes, %d of %d datagrams lost, %d out of order, "
                    + "jitter %.3f ms", rep.bytes(), rep.errors(), rep.datagrams(), rep.outOfOrder(), rep.jitterMicros() / 1e3));
        }
        metrics(out, r);
        r.notes().forEach(n -> out.println("# note: " + n));
    }
}
