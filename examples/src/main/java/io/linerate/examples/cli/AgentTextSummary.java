package io.linerate.examples.cli;

import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.Rates;
import io.linerate.core.sink.TransferFormat;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.client.RemoteBidirResult;
import io.linerate.peers.agent.client.RemoteParallelResult;
import io.linerate.peers.agent.client.RemoteStreamResult;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * The text summary of a stream with linerate's agent: the joined summary line, then each end's own
 * line ({@code # local}, {@code # remote}); for several streams each tagged {@code [  i]} and their
 * sum ({@code [SUM]}), as iperf3 prints them; for both directions each tagged {@code [fwd]} or
 * {@code [rev]}. A TCP stream's sender's {@code TCP_INFO} follows each stream's lines
 * ({@link TcpInfoText}), naming the agent's host where it sent, with its per-interval figures.
 */
final class AgentTextSummary {
    private AgentTextSummary() {}

    /** @return whether {@code result} is the agent's and was written */
    static boolean write(PrintWriter out, MeasurementResult result) {
        if (result instanceof RemoteStreamResult r) {
            ends(out, "", r);
            out.println("# clock: " + r.clock() + "; no one-way delay is reported");
        } else if (result instanceof RemoteBidirResult r) {
            ends(out, "[fwd] ", r.forward());
            ends(out, "[rev] ", r.reverse());
            r.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
        } else if (result instanceof RemoteParallelResult r) {
            parallel(out, r);
        } else {
            return false;
        }
        return true;
    }

    private static void parallel(PrintWriter out, RemoteParallelResult r) {
        List<RemoteStreamResult> streams = r.streams();
        for (int i = 0; i < streams.size(); i++) {
            ends(out, String.format(Locale.ROOT, "[%3d] ", i), streams.get(i));
        }
        for (Metric m : r.metrics()) {
            if ("sum".equals(m.labels().get("stream"))) {
                out.println(String.format(Locale.ROOT, "[SUM] %-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
            }
        }
        out.println(String.format(Locale.ROOT, "[SUM] local  %d B, remote %d B over the whole streams%s",
                r.bytes("local"), r.bytes("remote"), r.udpSum().map(u -> String.format(Locale.ROOT,
                        "; window datagrams sent %d, received %d, lost %d", u[0], u[1], u[2])).orElse("")));
        r.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
        out.println("# clock: " + streams.get(0).clock() + "; no one-way delay is reported");
    }

    private static void ends(PrintWriter out, String tag, RemoteStreamResult d) {
        boolean udp = d.transfer().spec().protocol() == Protocol.UDP;
        out.println(tag + TransferFormat.summaryLine(d.transfer()));
        TransferFormat.receiverNote(d.transfer()).ifPresent(n -> out.println(tag + n));
        out.println(tag + end("local", d.local(), d.remote(), udp));
        out.println(tag + end("remote", d.remote(), d.local(), udp));
        if (!udp) {
            String sender = d.local().sender() ? "sender" : "sender, " + d.transfer().spec().endpoint()
                    .remoteAddress().map(a -> "the agent at " + a.host()).orElse("the agent");
            TcpInfoText.end(out, tag, sender, d.transfer());
            TcpInfoText.farIntervals(out, tag, sender, d.transfer(), d.farSenderIntervals());
        }
        DataPathText.print(out, tag, d.transfer());
    }

    /**
     * A UDP receiver counts the datagrams sent inside the sender's window, wherever they arrived:
     * its goodput is over the sender's window length (as in the summary line).
     */
    private static String end(String host, EndCounters e, EndCounters other, boolean udp) {
        boolean senderWindow = udp && !e.sender();
        long window = senderWindow ? other.windowNanos() : e.windowNanos();
        var bps = Rates.bitsPerSecond(e.windowBytes(), window);
        return String.format(Locale.ROOT, "# %-6s %-8s %d B over the whole stream, %s over %s %.2f s window, cpu %d ms, %s us/KiB",
                host, e.sender() ? "sent" : "received", e.bytes(),
                bps.isPresent() ? Rates.text(bps.getAsDouble()) : "n/a",
                senderWindow ? "the sender's" : "its own", window / 1e9, e.cpuNanos() / 1_000_000,
                RemoteStreamResult.serviceDemand(e).isPresent()
                        ? String.format(Locale.ROOT, "%.3f", RemoteStreamResult.serviceDemand(e).getAsDouble()) : "n/a");
    }
}
