package io.linerate.examples.cli;

import io.linerate.core.Endpoint;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.nio.iperf3.Iperf3Client;
import io.linerate.nio.iperf3.Iperf3Exception;
import io.linerate.nio.iperf3.Iperf3Options;
import io.linerate.nio.iperf3.Iperf3Result;
import java.io.PrintWriter;
import java.util.Locale;

/** {@code stream --peer HOST:PORT --peer-protocol iperf3}: one test against an unmodified iperf3 server. */
final class Iperf3StreamRun {
    private Iperf3StreamRun() {}

    /**
     * @return the exit code: 0 done, 1 the result is invalid
     * @throws Iperf3Exception when the server refuses, fails or goes away (exit 1)
     * @throws IllegalArgumentException for bad usage (exit 2)
     */
    static int run(TransferSpec spec, PeerOptions peer, OutputFormat fmt, PrintWriter out) throws Iperf3Exception {
        if (fmt == OutputFormat.ktap) {
            throw new IllegalArgumentException("--format ktap is not available with --peer-protocol iperf3; allowed: text, json");
        }
        Endpoint.Remote at = (Endpoint.Remote) Endpoint.parse(peer.peer);
        Iperf3Options options = new Iperf3Options(peer.reverse, peer.parallel, peer.udpCounters64Bit, peer.tcpDrain);
        if (fmt == OutputFormat.text) {
            out.println("# linerate " + Linerate.version() + " stream against iperf3 at " + peer.peer + ": " + spec
                    + (peer.reverse ? " reverse" : "") + " parallel=" + peer.parallel);
            out.flush();
        }
        Iperf3Result r = Iperf3Client.run(at.host(), at.port(), spec, options);
        if (fmt == OutputFormat.json) {
            out.println(ResultJson.of(r).toJson());
        } else {
            boolean udp = spec.protocol() == Protocol.UDP;
            out.println(String.format(Locale.ROOT, "local  %s %d bytes in %.3f s%s", peer.reverse ? "received" : "sent",
                    r.local().bytes(), r.local().nanos() / 1e9,
                    udp ? ", " + r.local().datagrams() + " datagrams" : ""));
            out.println(String.format(Locale.ROOT, "remote %s %d bytes%s", peer.reverse ? "sent" : "received", r.remoteBytes(),
                    udp ? ", packets " + r.remotePackets() + ", errors " + r.remoteErrors() : ""));
            for (Metric m : r.metrics()) {
                out.println(String.format(Locale.ROOT, "%-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
            }
            for (String n : r.notes()) {
                out.println("# note: " + n);
            }
            for (String n : r.invalidReasons()) {
                out.println("# invalid: " + n);
            }
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }
}
