package io.linerate.examples.cli;

import io.linerate.afpacket.CounterEvent;
import io.linerate.afpacket.NicCounter;
import io.linerate.afpacket.NicCounters;
import io.linerate.afpacket.RawInterval;
import io.linerate.afpacket.RawResult;
import io.linerate.afpacket.RawStreamResult;
import io.linerate.afpacket.RawTransfer;
import io.linerate.afpacket.RawTransferSpec;
import io.linerate.core.Better;
import io.linerate.core.Clock;
import io.linerate.core.Metric;
import io.linerate.core.TransferException;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.JsonObject;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate raw}: raw Ethernet frames from one interface to another through AF_PACKET, one
 * stream per ethertype, optionally steered to RX queues by Flow Director rules. A run is valid
 * only when every frame sent in the measured window arrived.
 */
@Command(name = "raw", mixinStandardHelpOptions = true, footer = Converters.UNITS_FOOTER,
        description = {"Sends raw Ethernet frames from --tx to --rx through AF_PACKET (needs CAP_NET_RAW), one stream "
                + "per ethertype, and counts every frame: loss, reordering, duplicates, frames/s and bits/s at L2 "
                + "with the frame size, kernel drops, CPU time and interface counters.",
                "Exit codes: 0 valid, 1 the run failed or is not valid (any loss), 2 bad usage."})
public final class RawCommand implements Callable<Integer> {
    @Spec
    CommandSpec command;

    @Mixin
    OutputOptions output;

    @Option(names = "--tx", required = true, paramLabel = "IF", description = "Sending interface.")
    String tx;

    @Option(names = "--rx", required = true, paramLabel = "IF", description = "Receiving interface.")
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

    @Option(names = "--dst-mac", paramLabel = "MAC", description = "Destination MAC (default: the --rx interface's address).")
    String dstMac;

    @Option(names = "--src-mac", paramLabel = "MAC", description = "Source MAC (default: the --tx interface's address).")
    String srcMac;

    @Option(names = "--steer", description = "Install Flow Director rules steering stream i to RX queue i (mod queues) on --rx.")
    boolean steer;

    @Option(names = "--allow-unsteered", description = "With --steer: run without steering when --rx has no ntuple rules.")
    boolean allowUnsteered;

    @Option(names = "--no-hw-timestamps", description = "Do not try hardware RX timestamps (SIOCSHWTSTAMP).")
    boolean noHwTimestamps;

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
    public Integer call() throws TransferException {
        PrintWriter out = command.commandLine().getOut();
        try {
            return run(out);
        } finally {
            out.flush();
        }
    }

    private int run(PrintWriter out) throws TransferException {
        OutputFormat fmt = output.format();
        if (!txMode.equals("ring") && !txMode.equals("sendmmsg")) {
            throw new IllegalArgumentException("--tx-mode '" + txMode + "' is not known; allowed: ring, sendmmsg");
        }
        RawTransferSpec.Builder b = RawTransferSpec.builder(tx, rx)
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
                .txRing(txMode.equals("ring"));
        if (dstMac != null) {
            b.destinationMac(RawTransferSpec.parseMac(dstMac));
        }
        if (srcMac != null) {
            b.sourceMac(RawTransferSpec.parseMac(srcMac));
        }
        RawTransferSpec spec = b.build();
        KtapDocument doc = fmt == OutputFormat.ktap ? KtapDocument.start(out, 1) : null;
        if (fmt == OutputFormat.text) {
            out.println(String.format(Locale.ROOT, "# linerate %s raw: %s -> %s, ethertypes %s, %d-byte frames, rate %s, "
                    + "warm-up %d ms, duration %d ms", Linerate.version(), tx, rx, etherTypeList(spec), spec.frameSize(),
                    spec.rateBitsPerSecond() == 0 ? "unlimited" : spec.rateBitsPerSecond() + " bit/s",
                    spec.warmup().toMillis(), spec.duration().toMillis()));
        }
        Clock clock = Clock.system();
        long start = clock.nanoTime();
        RawResult r = RawTransfer.run(spec, clock, i -> {
            if (fmt != OutputFormat.json) {
                out.println((fmt == OutputFormat.ktap ? "# " : "") + intervalLine(i));
                out.flush();
            }
        });
        double t = (clock.nanoTime() - start) / 1e9;
        switch (fmt) {
            case json -> out.println(json(r).toJson());
            case ktap -> {
                for (RawStreamResult s : r.streams()) {
                    doc.diagnostic(streamLine(s));
                }
                r.counterNotes().forEach(n -> doc.diagnostic("counters: " + n));
                metrics(r, t).forEach(doc.metrics()::accept);
                if (r.valid()) {
                    doc.ok("raw");
                } else {
                    doc.fail("raw", "invalid: " + String.join("; ", r.reasons()));
                }
                doc.end();
            }
            case text -> {
                out.println("- - - - - - - - - - - - - - - - - - - - - - - - -");
                for (RawStreamResult s : r.streams()) {
                    out.println(streamLine(s));
                }
                out.println(String.format(Locale.ROOT, "# cpu: sender %.3f s, receiver %.3f s; rx timestamps: %s; steering: %s",
                        r.senderCpuNanos() / 1e9, r.receiverCpuNanos() / 1e9, r.timestamping().label(), r.steering()));
                r.txNic().ifPresent(d -> out.println(nicLine(d, NicCounter.TX_PACKETS, NicCounter.TX_BYTES, NicCounter.TX_DROPPED)));
                r.rxNic().ifPresent(d -> out.println(nicLine(d, NicCounter.RX_PACKETS, NicCounter.RX_BYTES, NicCounter.RX_DROPPED)));
                r.counterNotes().forEach(n -> out.println("# counters: " + n));
                out.println(r.valid() ? "VALID" : "INVALID: " + String.join("; ", r.reasons()));
            }
        }
        return r.valid() ? Linerate.OK : Linerate.FAILED;
    }

    private static String etherTypeList(RawTransferSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (int e : spec.etherTypes()) {
            sb.append(sb.length() == 0 ? "" : ",").append(hex(e));
        }
        return sb.toString();
    }

    static String hex(int etherType) {
        return String.format(Locale.ROOT, "0x%04x", etherType);
    }

    static String intervalLine(RawInterval i) {
        return String.format(Locale.ROOT, "%5.2f-%5.2f sec  tx %d frames  rx %d frames  tx %s  rx %s  (%d-byte frames)%s",
                i.startSeconds(), i.endSeconds(), i.txFrames(), i.rxFrames(),
                rate(i.txFramesPerSecond(), i.txBitsPerSecond()), rate(i.rxFramesPerSecond(), i.rxBitsPerSecond()),
                i.frameSize(), i.omitted() ? "  (omitted)" : "");
    }

    static String streamLine(RawStreamResult s) {
        return String.format(Locale.ROOT,
                "stream %d ethertype %s: tx %d frames %d bytes, rx %d frames %d bytes, lost %s, reordered %d, duplicates %d, "
                        + "tx %s, rx %s (%d-byte frames), kernel drops %d, queue %s",
                s.streamId(), hex(s.etherType()), s.txFrames(), s.txBytes(), s.rxFrames(), s.rxBytes(),
                s.lossPercent().isPresent() ? Long.toString(s.lost()) : "n/a",
                s.reordered(), s.duplicates(), rate(s.txFramesPerSecond(), s.txBitsPerSecond()),
                rate(s.rxFramesPerSecond(), s.rxBitsPerSecond()), s.frameSize(), s.kernelDrops(),
                s.queue() < 0 ? "not steered" : Long.toString(s.queue()));
    }

    private static String nicLine(NicCounters.Delta d, NicCounter packets, NicCounter bytes, NicCounter dropped) {
        return String.format(Locale.ROOT, "# %s counters over the run: %s %d, %s %d, %s %d", d.interfaceName(),
                packets.file(), d.get(packets), bytes.file(), d.get(bytes), dropped.file(), d.get(dropped));
    }

    private static String rate(OptionalDouble fps, OptionalDouble bps) {
        if (fps.isEmpty() || bps.isEmpty()) {
            return "- frames/s";
        }
        return String.format(Locale.ROOT, "%.0f frames/s %.3f Mbit/s", fps.getAsDouble(), bps.getAsDouble() / 1e6);
    }

    static List<Metric> metrics(RawResult r, double t) {
        java.util.ArrayList<Metric> m = new java.util.ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            Map<String, String> labels = Map.of("ethertype", hex(s.etherType()), "frame_size", Integer.toString(s.frameSize()));
            s.rxFramesPerSecond().ifPresent(v -> m.add(new Metric("raw_rx_frames_per_s", v, "frames/s", Metric.LOCAL, t, labels, Better.HIGHER)));
            s.rxBitsPerSecond().ifPresent(v -> m.add(new Metric("raw_rx_bits_per_s", v, "bit/s", Metric.LOCAL, t, labels, Better.HIGHER)));
            s.txFramesPerSecond().ifPresent(v -> m.add(new Metric("raw_tx_frames_per_s", v, "frames/s", Metric.LOCAL, t, labels, Better.HIGHER)));
            if (s.lossPercent().isPresent()) { // no frame sent in the window: no loss to report, not 0
                m.add(new Metric("raw_lost_frames", s.lost(), "frames", Metric.LOCAL, t, labels, Better.LOWER));
            }
        }
        m.add(new Metric("raw_sender_cpu", r.senderCpuNanos(), "ns", Metric.LOCAL, t, Map.of(), Better.LOWER));
        m.add(new Metric("raw_receiver_cpu", r.receiverCpuNanos(), "ns", Metric.LOCAL, t, Map.of(), Better.LOWER));
        return m;
    }

    static JsonObject json(RawResult r) {
        JsonObject n = JsonObject.create();
        n.put("tx", r.spec().txInterface());
        n.put("rx", r.spec().rxInterface());
        n.put("frame_size", r.spec().frameSize());
        n.put("measured_ns", r.measuredNanos());
        List<JsonObject> streams = new ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            JsonObject o = JsonObject.create();
            o.put("stream", s.streamId());
            o.put("ethertype", hex(s.etherType()));
            o.put("frame_size", s.frameSize());
            o.put("tx_frames", s.txFrames());
            o.put("rx_frames", s.rxFrames());
            o.put("tx_bytes", s.txBytes());
            o.put("rx_bytes", s.rxBytes());
            if (s.lossPercent().isPresent()) {
                o.put("lost", s.lost());
            } else {
                o.putNull("lost");
            }
            o.put("reordered", s.reordered());
            o.put("duplicates", s.duplicates());
            o.put("frames_per_s", s.rxFramesPerSecond());
            o.put("bits_per_s", s.rxBitsPerSecond());
            o.put("tx_frames_per_s", s.txFramesPerSecond());
            o.put("tx_bits_per_s", s.txBitsPerSecond());
            o.put("tx_frames_total", s.txFramesTotal());
            o.put("rx_frames_total", s.rxFramesTotal());
            o.put("kernel_packets", s.kernelPackets());
            o.put("kernel_drops", s.kernelDrops());
            o.put("queue", s.queue());
            streams.add(o);
        }
        n.putObjects("streams", streams);
        n.put("cpu_ns", JsonObject.create().put("sender", r.senderCpuNanos()).put("receiver", r.receiverCpuNanos()));
        n.put("tx_retries", r.txRetries());
        n.put("timestamps", r.timestamping().label());
        n.put("steered", r.steered());
        n.put("steering", r.steering());
        List<JsonObject> buckets = new ArrayList<>();
        for (io.linerate.afpacket.StampInterval b : r.rxIntervals()) {
            buckets.add(JsonObject.create()
                    .put("start", b.startSeconds())
                    .put("end", b.endSeconds())
                    .put("frames", b.frames())
                    .put("frames_per_s", b.framesPerSecond())
                    .put("bits_per_s", b.bitsPerSecond()));
        }
        n.putObjects("rx_intervals", buckets);
        r.txNic().ifPresent(d -> n.put("tx_nic", nic(d)));
        r.rxNic().ifPresent(d -> n.put("rx_nic", nic(d)));
        n.put("valid", r.valid());
        n.putStrings("reasons", r.reasons());
        r.error().ifPresent(e -> n.put("error", e));
        return n;
    }

    private static JsonObject nic(NicCounters.Delta d) {
        JsonObject o = JsonObject.create();
        o.put("interface", d.interfaceName());
        for (NicCounter c : NicCounter.values()) {
            o.put(c.file(), d.get(c));
        }
        // every glitch, wrap and reset per counter, only counters that had any
        JsonObject events = JsonObject.create();
        for (NicCounter c : NicCounter.values()) {
            JsonObject e = JsonObject.create();
            boolean any = false;
            for (CounterEvent k : CounterEvent.values()) {
                if (d.count(c, k) > 0) {
                    e.put(k.key(), d.count(c, k));
                    any = true;
                }
            }
            if (any) {
                events.put(c.file(), e);
            }
        }
        o.put("events", events);
        List<String> doubt = new ArrayList<>();
        d.inDoubt().forEach(c -> doubt.add(c.file()));
        o.putStrings("in_doubt", doubt);
        return o;
    }
}
