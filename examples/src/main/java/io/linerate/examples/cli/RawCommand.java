package io.linerate.examples.cli;

import io.linerate.afpacket.NicCounter;
import io.linerate.afpacket.RawMeasurement;
import io.linerate.afpacket.RawResult;
import io.linerate.afpacket.RawStreamResult;
import io.linerate.core.Clock;
import io.linerate.core.Idle;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.client.RemoteRawResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code linerate raw}: raw Ethernet frames from one interface to another through AF_PACKET, one
 * stream per ethertype, optionally steered to RX queues by Flow Director rules. A run is valid
 * only when every frame sent in the measured window arrived. The transport is picked by
 * {@link Transports#select} ({@code --transport}, or the first available that runs raw frames:
 * afpacket) and run through {@link Transport#open}, as every pattern is; with {@code --peer} the
 * spec's endpoint is linerate's agent ({@link io.linerate.core.AgentPeer}, with its secret), which
 * the transport hands to the agent's protocol, and the result holds both ends' counts
 * ({@link RemoteRawResult}). {@code --json} writes the result's {@link ResultJson#of} object and
 * {@code --ktap} a KTAP document of its metrics.
 */
@Command(name = "raw", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Sends raw Ethernet frames from --tx to --rx through AF_PACKET (needs CAP_NET_RAW), one stream "
                + "per ethertype, and counts every frame: loss, reordering, duplicates, frames/s and bits/s at L2 "
                + "with the frame size, kernel drops, CPU time and interface counters.",
                "With --tx alone it only sends (give --dst-mac) and reports what it sent; with --rx alone it only "
                + "receives, for --warmup + --duration, and reports what it counted. Loss needs both ends: a run "
                + "with one end reports it as unknown.",
                "With --peer HOST:PORT the other end runs on linerate's agent (`linerate serve`) on its interface "
                + "--peer-interface: --tx alone sends to it, --rx alone receives from it; both ends' counts are "
                + "reported, host local and host remote.",
                "Exit codes: 0 valid, 1 the run failed or is not valid (any loss), 2 bad usage, 130 interrupted (Ctrl-C)."})
public final class RawCommand implements Callable<Integer>, ReportsProgress {
    @Spec
    CommandSpec command;

    private volatile ProgressView progress = ProgressView.COUNTERS;

    @Mixin
    OutputOptions output;

    @Mixin
    RepeatOption repeat;

    @Option(names = "--tx", paramLabel = "IF", description = "Sending interface; alone, the run only sends.")
    String tx;

    @Option(names = "--rx", paramLabel = "IF", description = "Receiving interface; alone, the run only receives.")
    String rx;

    @Option(names = "--ethertypes", split = ",", defaultValue = "0x88b5", converter = EtherTypeConverter.class,
            paramLabel = "TYPE", splitSynopsisLabel = ",", description = "One stream per ethertype, 0x0600..0xffff (default: ${DEFAULT-VALUE}).")
    List<Integer> etherTypes;

    @Option(names = "--frame-size", defaultValue = "1514", paramLabel = "BYTES", converter = Converters.SizeConverter.class,
            description = "L2 frame size without FCS, 60..MTU+14 (default: ${DEFAULT-VALUE}).")
    int frameSize;

    @Option(names = "--rate", defaultValue = "0", converter = Converters.RateConverter.class, paramLabel = "BIT/S",
            description = "Target of all streams together in L2 bit/s, decimal k/m/g/t suffixes in any case (2.5G); "
                    + "0 = unlimited (default).")
    long rate;

    @Option(names = "--duration", defaultValue = "10s", converter = Converters.DurationConverter.class, paramLabel = "TIME",
            description = "Measured time after the warm-up (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "1s", converter = Converters.DurationConverter.class, paramLabel = "TIME",
            description = "Time sent before the measured window and left out of it (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--interval", defaultValue = "1s", converter = Converters.DurationConverter.class, paramLabel = "TIME",
            description = "Interval line length (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--batch", defaultValue = "64", paramLabel = "N", description = "Frames per send call, 1..1024 (default: ${DEFAULT-VALUE}).")
    int batch;

    @Option(names = "--tx-mode", defaultValue = "sendmmsg", paramLabel = "ring|sendmmsg",
            description = "Send through a TPACKET TX ring or with sendmmsg (default: ${DEFAULT-VALUE}).")
    String txMode;

    @Option(names = "--idle", paramLabel = "busy|yield|backoff|sleep",
            description = "How the sender waits while the kernel has no room and the receiver while every ring is empty: "
                    + "spin, Thread.yield, back off (spin, yield, then park 1 us to 1 ms), or sleep (the sender parks, "
                    + "the receiver sleeps in poll(2)) (default: the sender yields, the receiver sleeps in poll(2)).")
    String idle;

    @Option(names = "--unpaced",
            description = "With --tx and --rx both here: send at full rate, not paced by the receiver's credit (for "
                    + "benchmarks; linerate's own RX ring may then drop, which makes the run invalid). By default the "
                    + "sender never has more frames in flight than the receiver's ring holds.")
    boolean unpaced;

    @Option(names = "--dst-mac", paramLabel = "MAC",
            description = "Destination MAC (default: the --rx interface's address; required with --tx alone).")
    String dstMac;

    @Option(names = "--src-mac", paramLabel = "MAC", description = "Source MAC (default: the --tx interface's address).")
    String srcMac;

    @Option(names = "--steer", description = "Install Flow Director rules steering stream i to RX queue i (mod queues) on --rx.")
    boolean steer;

    @Option(names = "--allow-unsteered", description = "With --steer: run without steering when --rx has no ntuple rules.")
    boolean allowUnsteered;

    @Option(names = "--no-hw-timestamps", description = "Do not try hardware RX timestamps (SIOCSHWTSTAMP).")
    boolean noHwTimestamps;

    @Option(names = "--peer", paramLabel = "HOST:PORT",
            description = "Run the other end on linerate's agent (`linerate serve`) at HOST:PORT (name:port, IPv4:port or "
                    + "[IPv6]:port), on its interface --peer-interface; give --tx or --rx for this host's end.")
    String peer;

    @Option(names = "--peer-interface", paramLabel = "IF",
            description = "With --peer: the agent's interface, which receives (with --tx) or sends (with --rx).")
    String peerInterface;

    @Option(names = "--secret-file", paramLabel = "FILE", description = "With --peer: the agent's shared secret.")
    Path secretFile;

    @Option(names = "--transport", paramLabel = "NAME",
            description = "Transport to run on, by name (see `linerate transports`); default: the first available that "
                    + "runs raw frames (afpacket).")
    String transportName;

    /** Parses {@code 0x88b5} or decimal; the range is checked with the message naming the value. */
    static final class EtherTypeConverter implements CommandLine.ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return Converters.hexOrDecimal(value, 0x0600, 0xffff,
                    "ethertype '" + value + "' is not a number; allowed: 0x0600..0xffff",
                    "ethertype '" + value + "' is out of range; allowed: 0x0600..0xffff");
        }
    }

    /**
     * Runs {@code raw} on its own, for scripts that do not go through the top-level command:
     * {@code java -cp linerate.jar io.linerate.examples.cli.RawCommand --tx IF --rx IF ...}.
     */
    public static void main(String[] args) {
        System.exit(Linerate.runAlone(new RawCommand(), args));
    }

    @Override
    public Integer call() throws Exception {
        return Repeats.run(command, output.format(), repeat.runs(), this::run);
    }

    private int run(PrintWriter out) throws TransferException {
        OutputFormat fmt = output.format();
        checkOptions();
        RawTransferSpec spec = spec();
        progress = new RawProgress(spec);
        Transport transport = Transports.select(transportName, spec);
        KtapDocument doc = fmt == OutputFormat.ktap ? RunWriter.ktap(out) : null;
        if (fmt == OutputFormat.text) {
            out.println(header(spec, transport));
        }
        MeasurementResult result = measure(out, fmt, transport, spec);
        if (result instanceof RemoteRawResult both) {
            writeBothEnds(out, fmt, doc, spec, both);
            return result.valid() ? Linerate.OK : Linerate.FAILED;
        }
        switch (fmt) {
            case json -> RunWriter.printJson(out, ResultJson.of(result));
            case ktap -> writeKtap(doc, result);
            case text -> writeText(out, result);
        }
        return result.valid() ? Linerate.OK : Linerate.FAILED;
    }

    /** @return the text output's first line: the transport and this host's interfaces, or the agent and both ends' */
    private String header(RawTransferSpec spec, Transport transport) {
        String shape = ", ethertypes %s, %d-byte frames, rate %s, warm-up %d ms, duration %d ms";
        Object[] run = {RawFormat.etherTypeList(spec), spec.frameSize(),
                spec.rateBitsPerSecond() == 0 ? "unlimited" : spec.rateBitsPerSecond() + " bit/s",
                spec.warmup().toMillis(), spec.duration().toMillis()};
        if (spec.endpoint().remoteAddress().isPresent()) {
            return String.format(Locale.ROOT, "# linerate %s raw with the agent at %s: %s -> %s", Linerate.version(),
                    spec.endpoint(), tx != null ? tx + " (local)" : peerInterface + " (remote)",
                    rx != null ? rx + " (local)" : peerInterface + " (remote)") + String.format(Locale.ROOT, shape, run);
        }
        return String.format(Locale.ROOT, "# linerate %s raw on %s: %s -> %s", Linerate.version(), transport.name(),
                tx == null ? "(not sent here)" : tx, rx == null ? "(not received here)" : rx)
                + String.format(Locale.ROOT, shape, run);
    }

    /** @throws IllegalArgumentException naming the options that do not go together, or a --tx-mode not known */
    private void checkOptions() {
        if (!txMode.equals("ring") && !txMode.equals("sendmmsg")) {
            throw new IllegalArgumentException("--tx-mode '" + txMode + "' is not known; allowed: ring, sendmmsg");
        }
        if (tx == null && rx == null) {
            throw new IllegalArgumentException("no interface given; allowed: --tx IF, --rx IF or both");
        }
        if (peer == null && (peerInterface != null || secretFile != null)) {
            throw new IllegalArgumentException("--peer-interface and --secret-file apply with --peer HOST:PORT only");
        }
        if (peer != null && peerInterface == null) {
            throw new IllegalArgumentException("--peer needs --peer-interface IF, the agent's interface at the other end");
        }
        if (peer != null && tx != null && rx != null) {
            throw new IllegalArgumentException("with --peer this host runs one end: give --tx (the agent receives on "
                    + peerInterface + ") or --rx (the agent sends from it), not both");
        }
        if (peer != null && transportName != null) {
            throw new IllegalArgumentException("--transport applies without --peer only; with --peer each end takes the "
                    + "first available transport that runs raw frames");
        }
        if (rx == null && dstMac == null && peer == null) {
            throw new IllegalArgumentException("--tx without --rx needs --dst-mac MAC, the address of the receiving interface "
                    + "at the other end");
        }
        if (unpaced && (tx == null || rx == null)) {
            throw new IllegalArgumentException("--unpaced applies when --tx and --rx both run here; with one end here the "
                    + "sender has no receiver credit to be paced by");
        }
    }

    /**
     * @return the spec the options give
     * @throws IllegalArgumentException naming a value out of its range, as {@link RawTransferSpec.Builder#build()} does
     */
    private RawTransferSpec spec() {
        RawTransferSpec.Builder b = (tx == null ? RawTransferSpec.rxOnly(rx) : rx == null ? RawTransferSpec.txOnly(tx)
                : RawTransferSpec.builder(tx, rx))
                .etherTypes(etherTypes)
                .frameSize(frameSize)
                .rateBitsPerSecond(rate)
                .duration(duration)
                .warmup(warmup)
                .interval(interval)
                .batch(batch)
                .steer(steer)
                .allowUnsteered(allowUnsteered)
                .hardwareTimestamps(!noHwTimestamps)
                .txRing(txMode.equals("ring"))
                .unpaced(unpaced)
                .idle(idle == null ? null : Idle.parse(idle));
        if (dstMac != null) {
            b.destinationMac(RawTransferSpec.parseMac(dstMac));
        }
        if (srcMac != null) {
            b.sourceMac(RawTransferSpec.parseMac(srcMac));
        }
        if (peer != null) {
            b.endpoint(AgentPeerOptions.agent(peer, secretFile)).peerInterface(peerInterface);
        }
        return b.build();
    }

    /** Opens and runs the spec on the transport, printing interval lines as they come (not with --json). */
    private static MeasurementResult measure(PrintWriter out, OutputFormat fmt, Transport transport, RawTransferSpec spec)
            throws TransferException {
        try (Measurement m = transport.open(spec, Clock.system())) {
            if (m instanceof RawMeasurement raw && fmt != OutputFormat.json) {
                raw.onInterval(i -> {
                    out.println((fmt == OutputFormat.ktap ? "# " : "") + RawFormat.intervalLine(i));
                    out.flush();
                });
            }
            return m.run();
        }
    }

    /** Each stream's line and the counters' notes as diagnostics, then the metrics and the verdict. */
    private static void writeKtap(KtapDocument doc, MeasurementResult result) {
        if (result instanceof RawResult r) {
            for (RawStreamResult s : r.streams()) {
                doc.diagnostic(RawFormat.streamLine(s));
            }
            r.counterNotes().forEach(n -> doc.diagnostic("counters: " + n));
            r.lossUnknown().ifPresent(doc::diagnostic);
        }
        endKtap(doc, result);
    }

    /** Each stream's line, CPU, pacing and interface counters, then VALID or INVALID with the reasons. */
    private static void writeText(PrintWriter out, MeasurementResult result) {
        out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
        if (result instanceof RawResult r) {
            for (RawStreamResult s : r.streams()) {
                out.println(RawFormat.streamLine(s));
            }
            out.println(RawFormat.cpuLine(r));
            r.sender().ifPresent(x -> out.println(RawFormat.pacingLine(x.pacing())));
            r.txNic().ifPresent(d -> out.println(RawFormat.nicLine(d, NicCounter.TX_PACKETS, NicCounter.TX_BYTES,
                    NicCounter.TX_DROPPED)));
            r.rxNic().ifPresent(d -> out.println(RawFormat.nicLine(d, NicCounter.RX_PACKETS, NicCounter.RX_BYTES,
                    NicCounter.RX_DROPPED)));
            r.counterNotes().forEach(n -> out.println("# counters: " + n));
            r.lossUnknown().ifPresent(n -> out.println("# " + n));
        } else {
            result.metrics().forEach(m -> out.println(RawFormat.metricLine(m)));
        }
        out.println(result.valid() ? "VALID" : "INVALID: " + String.join("; ", result.invalidReasons()));
    }

    @Override
    public ProgressView progressView() {
        return progress;
    }

    /** Writes both ends' counts of a run with the agent: each stream, each end, the clocks, then the verdict. */
    private static void writeBothEnds(PrintWriter out, OutputFormat fmt, KtapDocument doc, RawTransferSpec spec,
                                      RemoteRawResult result) {
        List<String> lines = new java.util.ArrayList<>();
        for (int e : spec.etherTypes()) {
            lines.add(RawFormat.remoteStreamLine(result, e));
        }
        lines.add(RawFormat.endLine(result.local(), "local "));
        lines.add(RawFormat.endLine(result.remote(), "remote"));
        lines.add("clocks: " + result.clock() + " (each end counts by its own; frames belong to the window by the phase "
                + "the sender wrote in them)");
        switch (fmt) {
            case json -> RunWriter.printJson(out, ResultJson.of(result));
            case ktap -> {
                lines.forEach(doc::diagnostic);
                endKtap(doc, result);
            }
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                lines.forEach(l -> out.println(l.startsWith("stream") ? l : "# " + l));
                out.println(result.valid() ? "VALID" : "INVALID: " + String.join("; ", result.invalidReasons()));
            }
        }
    }

    /** Ends a raw run's KTAP test: its metrics, then ok, or not ok with the reasons it is invalid ({@link KtapOutputs#result}). */
    private static void endKtap(KtapDocument doc, MeasurementResult result) {
        result.metrics().forEach(doc.metrics()::accept);
        KtapOutputs.result(doc, "raw", result);
    }
}
