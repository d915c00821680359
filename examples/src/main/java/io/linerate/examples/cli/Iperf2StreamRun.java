package io.linerate.examples.cli;

import io.linerate.core.Endpoint;
import io.linerate.core.Metric;
import io.linerate.core.TransferSpec;
import io.linerate.core.sink.ResultJson;
import io.linerate.nio.iperf2.Iperf2Client;
import io.linerate.nio.iperf2.Iperf2Exception;
import io.linerate.nio.iperf2.Iperf2HeaderVariant;
import io.linerate.nio.iperf2.Iperf2Result;
import io.linerate.nio.iperf2.Iperf2ServerReport;
import java.io.PrintWriter;
import java.util.Locale;

/** {@code stream --peer HOST:PORT --peer-protocol iperf2}: one forward test against an unmodified iperf 2 server. */
final class Iperf2StreamRun {
    private Iperf2StreamRun() {}

    /**
     * @return the exit code: 0 done, 1 the result is invalid
     * @throws Iperf2Exception when the server cannot be reached or stops taking data (exit 1)
     * @throws IllegalArgumentException for bad usage (exit 2)
     */
    static int run(TransferSpec spec, PeerOptions peer, OutputFormat fmt, PrintWriter out) throws Iperf2Exception {
        Iperf2HeaderVariant header = Iperf2HeaderVariant.parse(peer.iperf2Header);
        Endpoint.Remote at = (Endpoint.Remote) Endpoint.parse(peer.peer);
        if (fmt == OutputFormat.text) {
            out.println("# linerate " + Linerate.version() + " stream against iperf 2 at " + peer.peer + ": " + spec);
            out.flush();
        }
        Iperf2Result r = Iperf2Client.run(at.host(), at.port(), spec, header);
        if (fmt == OutputFormat.json) {
            RunWriter.printJson(out, ResultJson.of(r));
        } else if (fmt == OutputFormat.ktap) {
            KtapOutputs.single(out, "linerate " + Linerate.version() + " stream against iperf 2 at " + peer.peer + ": " + spec, r);
        } else {
            out.println(String.format(Locale.ROOT, "local  sent %d bytes in %.3f s, %d %s", r.local().bytes(),
                    r.local().nanos() / 1e9, r.local().datagrams(), r.header().isPresent() ? "datagrams" : "writes"));
            if (r.remote().isPresent()) {
                Iperf2ServerReport rep = r.remote().get();
                out.println(String.format(Locale.ROOT, "remote received %d bytes, %d of %d datagrams lost, %d out of order, "
                        + "jitter %.3f ms", rep.bytes(), rep.errors(), rep.datagrams(), rep.outOfOrder(), rep.jitterMicros() / 1e3));
            }
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
