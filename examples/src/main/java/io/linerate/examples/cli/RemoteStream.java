package io.linerate.examples.cli;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.engine.EndCounters;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.sink.TransferFormat;
import io.linerate.core.IntervalListener;
import io.linerate.nio.agent.RemoteBidir;
import io.linerate.nio.agent.RemoteBidirResult;
import io.linerate.nio.agent.RemoteOptions;
import io.linerate.nio.agent.RemoteParallelResult;
import io.linerate.nio.agent.RemoteStreamResult;
import io.linerate.nio.agent.RemoteStreamTransfer;
import java.io.PrintWriter;
import java.util.Locale;

/** {@code linerate stream --peer}: this end here, the other on the agent; prints both ends. */
final class RemoteStream {
    private RemoteStream() {}

    static int run(PrintWriter out, OutputFormat fmt, TransferSpec spec, RemoteOptions options) throws TransferException {
        boolean udp = spec.protocol() == Protocol.UDP;
        RemoteStreamResult r;
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(), options)) {
            if (fmt == OutputFormat.text) {
                out.println("# linerate " + Linerate.version() + " stream with " + spec.endpoint() + ", "
                        + (options.reverse() ? "reverse (the agent sends)" : "forward (this host sends)") + ": " + spec);
            }
            boolean localSends = !options.reverse();
            r = t.runBothEnds(s -> {
                if (fmt == OutputFormat.text) {
                    out.println(line(s, udp, localSends));
                    out.flush();
                }
            });
        }
        switch (fmt) {
            case json -> RunWriter.printJson(out, ResultJson.of(r));
            case ktap -> KtapOutputs.single(out, "linerate " + Linerate.version() + " stream with "
                    + spec.endpoint() + (options.reverse() ? ", reverse" : "") + ": " + spec, r);
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                out.println(TransferFormat.summaryLine(r.transfer()));
                out.println(end("local", r.local(), r.remote(), udp));
                out.println(end("remote", r.remote(), r.local(), udp));
                out.println("# clock: " + r.clock() + "; no one-way delay is reported");
            }
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    static int runBidir(PrintWriter out, OutputFormat fmt, TransferSpec spec, java.util.Optional<byte[]> secret)
            throws TransferException {
        boolean udp = spec.protocol() == Protocol.UDP;
        if (fmt == OutputFormat.text) {
            out.println("# linerate " + Linerate.version() + " stream with " + spec.endpoint()
                    + ", both directions at once: " + spec);
        }
        IntervalListener forward = s -> interval(out, fmt, "[fwd] ", s, udp, true);
        IntervalListener reverse = s -> interval(out, fmt, "[rev] ", s, udp, false);
        RemoteBidirResult r = RemoteBidir.run(spec, Clock.system(), secret, forward, reverse);
        switch (fmt) {
            case json -> RunWriter.printJson(out, ResultJson.of(r));
            case ktap -> KtapOutputs.single(out, "linerate " + Linerate.version()
                    + " stream with " + spec.endpoint() + ", both directions at once: " + spec, r);
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                for (var d : java.util.List.of(r.forward(), r.reverse())) {
                    String tag = d == r.forward() ? "[fwd] " : "[rev] ";
                    out.println(tag + TransferFormat.summaryLine(d.transfer()));
                    out.println(tag + end("local", d.local(), d.remote(), udp));
                    out.println(tag + end("remote", d.remote(), d.local(), udp));
                }
                r.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
            }
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    /**
     * {@code --parallel N} with linerate's agent: one session of N streams, each stream's interval
     * lines tagged {@code [  i]}, then each stream's summary and the sum ({@code [SUM]}), as iperf3 prints them.
     */
    static int runParallel(PrintWriter out, OutputFormat fmt, TransferSpec spec, RemoteOptions options)
            throws TransferException {
        boolean udp = spec.protocol() == Protocol.UDP;
        boolean localSends = !options.reverse();
        RemoteParallelResult r;
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(spec, Clock.system(), options)) {
            if (fmt == OutputFormat.text) {
                out.println("# linerate " + Linerate.version() + " stream with " + spec.endpoint() + ", "
                        + (options.reverse() ? "reverse (the agent sends)" : "forward (this host sends)") + ", "
                        + options.streams() + " parallel streams: " + spec);
            }
            r = t.runStreams((i, s) -> interval(out, fmt, String.format(Locale.ROOT, "[%3d] ", i), s, udp, localSends));
        }
        String title = "linerate " + Linerate.version() + " stream with " + spec.endpoint()
                + (options.reverse() ? ", reverse" : "") + ", " + options.streams() + " parallel streams: " + spec;
        switch (fmt) {
            case json -> RunWriter.printJson(out, ResultJson.of(r));
            case ktap -> KtapOutputs.single(out, title, r);
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                for (int i = 0; i < r.streams().size(); i++) {
                    RemoteStreamResult d = r.streams().get(i);
                    String tag = String.format(Locale.ROOT, "[%3d] ", i);
                    out.println(tag + TransferFormat.summaryLine(d.transfer()));
                    out.println(tag + end("local", d.local(), d.remote(), udp));
                    out.println(tag + end("remote", d.remote(), d.local(), udp));
                }
                for (io.linerate.core.Metric m : r.metrics()) {
                    if ("sum".equals(m.labels().get("stream"))) {
                        out.println(String.format(Locale.ROOT, "[SUM] %-6s %s = %.3f %s", m.host(), m.name(), m.value(), m.unit()));
                    }
                }
                out.println(String.format(Locale.ROOT, "[SUM] local  %d B, remote %d B over the whole streams%s",
                        r.bytes("local"), r.bytes("remote"), r.udpSum().map(u -> String.format(Locale.ROOT,
                                "; window datagrams sent %d, received %d, lost %d", u[0], u[1], u[2])).orElse("")));
                r.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
                out.println("# clock: " + r.streams().get(0).clock() + "; no one-way delay is reported");
            }
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    private static void interval(PrintWriter out, OutputFormat fmt, String tag, io.linerate.core.IntervalSample s,
                                 boolean udp, boolean localSends) {
        if (fmt == OutputFormat.text) {
            synchronized (out) {
                out.println(tag + line(s, udp, localSends));
                out.flush();
            }
        }
    }

    /**
     * A UDP sender here cannot know loss or jitter (the agent receives): its interval lines say
     * how many datagrams it sent and n/a for those; the summary takes loss from the receiver's count.
     */
    static String line(io.linerate.core.IntervalSample s, boolean udp, boolean localSends) {
        if (!udp || !localSends) {
            return TransferFormat.intervalLine(s, udp);
        }
        String base = TransferFormat.intervalLine(s, false);
        String omitted = "  (omitted)";
        boolean o = base.endsWith(omitted);
        return (o ? base.substring(0, base.length() - omitted.length()) : base)
                + String.format(Locale.ROOT, "  %d datagrams sent  jitter n/a  loss n/a (the receiver counts it)",
                s.datagrams()) + (o ? omitted : "");
    }

    /**
     * A UDP receiver counts the datagrams sent inside the sender's window, wherever they arrived:
     * its goodput is over the sender's window length (as in the summary line).
     */
    private static String end(String host, EndCounters e, EndCounters other, boolean udp) {
        boolean senderWindow = udp && !e.sender();
        long window = senderWindow ? other.windowNanos() : e.windowNanos();
        var bps = io.linerate.core.Rates.bitsPerSecond(e.windowBytes(), window);
        return String.format(Locale.ROOT, "# %-6s %-8s %d B over the whole stream, %s over %s %.2f s window, cpu %d ms, %s us/KiB",
                host, e.sender() ? "sent" : "received", e.bytes(),
                bps.isPresent() ? String.format(Locale.ROOT, "%.2f Mbits/sec", bps.getAsDouble() / 1e6) : "n/a",
                senderWindow ? "the sender's" : "its own", window / 1e9, e.cpuNanos() / 1_000_000,
                RemoteStreamResult.serviceDemand(e).isPresent()
                        ? String.format(Locale.ROOT, "%.3f", RemoteStreamResult.serviceDemand(e).getAsDouble()) : "n/a");
    }
}
