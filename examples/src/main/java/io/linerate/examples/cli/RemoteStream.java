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
            r = t.runBothEnds(s -> {
                if (fmt == OutputFormat.text) {
                    out.println(TransferFormat.intervalLine(s, udp));
                    out.flush();
                }
            });
        }
        switch (fmt) {
            case json -> out.println(ResultJson.of(r).toJson());
            case ktap -> r.metrics().forEach(m -> out.println("# ktap-metric-json: " + io.linerate.core.sink.MetricJson.metric(m)));
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                out.println(TransferFormat.summaryLine(r.transfer()));
                out.println(end("local", r.local()));
                out.println(end("remote", r.remote()));
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
        IntervalListener forward = s -> interval(out, fmt, "[fwd] ", s, udp);
        IntervalListener reverse = s -> interval(out, fmt, "[rev] ", s, udp);
        RemoteBidirResult r = RemoteBidir.run(spec, Clock.system(), secret, forward, reverse);
        switch (fmt) {
            case json -> out.println(ResultJson.of(r).toJson());
            case ktap -> r.metrics().forEach(m -> out.println("# ktap-metric-json: " + io.linerate.core.sink.MetricJson.metric(m)));
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                for (var d : java.util.List.of(r.forward(), r.reverse())) {
                    String tag = d == r.forward() ? "[fwd] " : "[rev] ";
                    out.println(tag + TransferFormat.summaryLine(d.transfer()));
                    out.println(tag + end("local", d.local()));
                    out.println(tag + end("remote", d.remote()));
                }
                r.invalidReasons().forEach(reason -> out.println("# invalid: " + reason));
            }
        }
        out.flush();
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    private static void interval(PrintWriter out, OutputFormat fmt, String tag, io.linerate.core.IntervalSample s,
                                 boolean udp) {
        if (fmt == OutputFormat.text) {
            synchronized (out) {
                out.println(tag + TransferFormat.intervalLine(s, udp));
                out.flush();
            }
        }
    }

    private static String end(String host, EndCounters e) {
        return String.format(Locale.ROOT, "# %-6s %-8s %d B over the whole stream, %s over its own %.2f s window, cpu %d ms, %s us/KiB",
                host, e.sender() ? "sent" : "received", e.bytes(),
                e.bitsPerSecond().isPresent() ? String.format(Locale.ROOT, "%.2f Mbits/sec", e.bitsPerSecond().getAsDouble() / 1e6) : "n/a",
                e.windowNanos() / 1e9, e.cpuNanos() / 1_000_000,
                RemoteStreamResult.serviceDemand(e).isPresent()
                        ? String.format(Locale.ROOT, "%.3f", RemoteStreamResult.serviceDemand(e).getAsDouble()) : "n/a");
    }
}
