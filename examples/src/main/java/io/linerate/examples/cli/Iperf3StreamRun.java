package io.linerate.examples.cli;

import io.linerate.core.Endpoint;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.nio.iperf3.Iperf3BidirResult;
import io.linerate.nio.iperf3.Iperf3Client;
import io.linerate.nio.iperf3.Iperf3Exception;
import io.linerate.nio.iperf3.Iperf3Options;
import io.linerate.nio.iperf3.Iperf3Result;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code stream --peer HOST:PORT --peer-protocol iperf3}: one test against an unmodified iperf3 server;
 * with {@code --bidir} iperf3's bidirectional test, each direction's lines tagged {@code [fwd]} or {@code [rev]}.
 */
final class Iperf3StreamRun {
    private Iperf3StreamRun() {}

    /**
     * @return the exit code: 0 done, 1 the result is invalid
     * @throws Iperf3Exception when the server refuses, fails or goes away (exit 1)
     * @throws IllegalArgumentException for bad usage (exit 2)
     */
    static int run(TransferSpec spec, PeerOptions peer, OutputFormat fmt, PrintWriter out) throws Iperf3Exception {
        Endpoint.Remote at = (Endpoint.Remote) Endpoint.parse(peer.peer);
        Iperf3Options options = options(peer);
        if (fmt == OutputFormat.text) {
            out.println("# linerate " + Linerate.version() + " stream against iperf3 at " + peer.peer + ": " + spec
                    + (peer.reverse ? " reverse" : "") + (peer.bidir ? " both directions at once" : "")
                    + " parallel=" + peer.parallel + (peer.bidir ? " each way" : ""));
            out.flush();
        }
        MeasurementResult r;
        if (peer.bidir) {
            Iperf3BidirResult b = Iperf3Client.runBidir(at.host(), at.port(), spec, options);
            if (fmt == OutputFormat.text) {
                ends(out, "[fwd] ", b.forward(), spec);
                ends(out, "[rev] ", b.reverse(), spec);
                for (Metric m : b.metrics()) {
                    String tag = "forward".equals(m.labels().get("direction")) ? "[fwd] " : "[rev] ";
                    out.println(String.format(Locale.ROOT, "%s%-6s %s = %.3f %s", tag, m.host(), m.name(), m.value(), m.unit()));
                }
                b.notes().forEach(n -> out.println("# note: " + n));
            }
            r = b;
        } else {
            Iperf3Result one = Iperf3Client.run(at.host(), at.port(), spec, options);
            if (fmt == OutputFormat.text) {
                ends(out, "", one, spec);
                for (Metric m : one.metrics()) {
                    out.println(String.format(Locale.ROOT, "%-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
                }
                one.notes().forEach(n -> out.println("# note: " + n));
            }
            r = one;
        }
        if (fmt == OutputFormat.json) {
            RunWriter.printJson(out, ResultJson.of(r));
        } else if (fmt == OutputFormat.ktap) {
            KtapOutputs.single(out, "linerate " + Linerate.version() + " stream against iperf3 at " + peer.peer + ": "
                    + spec + (peer.reverse ? " reverse" : "") + (peer.bidir ? " both directions at once" : ""), r);
        } else {
            r.invalidReasons().forEach(n -> out.println("# invalid: " + n));
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    /**
     * @return what the peer options add to the spec for iperf3's client
     * @throws IllegalArgumentException naming a value out of range
     */
    static Iperf3Options options(PeerOptions peer) {
        return new Iperf3Options(peer.reverse, peer.parallel, peer.udpCounters64Bit, peer.tcpDrain);
    }

    /** Prints one direction's two ends, each line after {@code tag}: what linerate moved, what the server counted. */
    private static void ends(PrintWriter out, String tag, Iperf3Result r, TransferSpec spec) {
        boolean udp = spec.protocol() == Protocol.UDP;
        boolean reverse = r.options().reverse();
        out.println(String.format(Locale.ROOT, "%slocal  %s %d bytes in %.3f s%s", tag, reverse ? "received" : "sent",
                r.local().bytes(), r.local().nanos() / 1e9, udp ? ", " + r.local().datagrams() + " datagrams" : ""));
        out.println(String.format(Locale.ROOT, "%sremote %s %d bytes%s", tag, reverse ? "sent" : "received", r.remoteBytes(),
                udp ? ", packets " + r.remotePackets() + ", errors " + r.remoteErrors() : ""));
    }
}
