package io.linerate.examples.cli;

import io.linerate.afpacket.NicCounter;
import io.linerate.afpacket.NicCounters;
import io.linerate.afpacket.RawInterval;
import io.linerate.afpacket.RawMetrics;
import io.linerate.afpacket.RawPacing;
import io.linerate.afpacket.RawRate;
import io.linerate.afpacket.RawResult;
import io.linerate.afpacket.RawStreamResult;
import io.linerate.core.Metric;
import io.linerate.core.RawTransferSpec;
import io.linerate.peers.agent.client.RawEndReport;
import io.linerate.peers.agent.client.RemoteRawResult;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The text lines {@code linerate raw} prints: interval lines, a line per stream (frames and bytes
 * of the window at each end, loss, reordering, frames/s and Mbit/s at L2), the CPU and interface
 * counter lines, and with {@code --peer} a line per stream and per end of both hosts' counts.
 */
final class RawFormat {
    private RawFormat() {}

    static String remoteStreamLine(RemoteRawResult r, int etherType) {
        String tx = r.sender().stream(etherType).map(c -> String.format(Locale.ROOT, "tx %d frames %d bytes %s", c.windowFrames(),
                c.windowBytes(), endRate(r.sender(), "raw_tx_frames_per_s", etherType, r.spec().frameSize()))).orElse("tx -");
        String rx = r.receiver().stream(etherType).map(c -> String.format(Locale.ROOT, "rx %d frames %d bytes %s", c.windowFrames(),
                c.windowBytes(), endRate(r.receiver(), "raw_rx_frames_per_s", etherType, r.spec().frameSize()))).orElse("rx -");
        return String.format(Locale.ROOT, "stream ethertype %s: %s (%s), %s (%s), lost %s", hex(etherType), tx,
                r.local().sender() ? "local" : "remote", rx, r.local().sender() ? "remote" : "local",
                r.lost(etherType).isPresent() ? Long.toString(r.lost(etherType).getAsLong()) : "unknown");
    }

    /** One end's frames/s and L2 Mbit/s over its own window, from its metric {@code name} for the ethertype. */
    private static String endRate(RawEndReport e, String name, int etherType, int frameSize) {
        OptionalDouble fps = e.metrics().stream()
                .filter(m -> m.name().equals(name) && hex(etherType).equals(m.labels().get("ethertype")))
                .mapToDouble(Metric::value).findFirst();
        return rate(fps, fps.isPresent() ? OptionalDouble.of(fps.getAsDouble() * frameSize * 8) : OptionalDouble.empty());
    }

    static String endLine(RawEndReport e, String host) {
        String frames = e.streams().stream().mapToLong(RawEndReport.StreamCounts::totalFrames).sum() + " frames";
        return String.format(Locale.ROOT, "%s %s on %s: %s in all (warm-up included), cpu %.3f s, interface %s %s",
                host, e.sender() ? "sent" : "received", e.interfaceName(), frames, e.cpuNanos() / 1e9,
                e.sender() ? "tx_packets" : "rx_packets",
                e.nicPackets().isPresent() ? Long.toString(e.nicPackets().getAsLong()) : "unread");
    }

    /** A metric of a provider's own result type, which has no raw fields to print. */
    static String metricLine(Metric m) {
        return String.format(Locale.ROOT, "%s%s %s %s", m.name(), m.labels().isEmpty() ? "" : m.labels(), m.value(), m.unit());
    }

    static String etherTypeList(RawTransferSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (int e : spec.etherTypes()) {
            sb.append(sb.length() == 0 ? "" : ",").append(hex(e));
        }
        return sb.toString();
    }

    static String hex(int etherType) {
        return RawMetrics.hex(etherType);
    }

    static String intervalLine(RawInterval i) {
        return String.format(Locale.ROOT, "%5.2f-%5.2f sec  %s  %s  (%d-byte frames)%s",
                i.startSeconds(), i.endSeconds(), intervalSide("tx", i.tx()), intervalSide("rx", i.rx()),
                i.frameSize(), i.omitted() ? "  (omitted)" : "");
    }

    static String intervalSide(String side, Optional<RawRate> r) {
        return r.map(x -> String.format(Locale.ROOT, "%s %d frames %s", side, x.frames(), rate(x.framesPerSecond(), x.bitsPerSecond())))
                .orElse(side + " -");
    }

    static String streamLine(RawStreamResult s) {
        String tx = s.tx().map(t -> String.format(Locale.ROOT, "tx %d frames %d bytes", t.window().frames(), t.window().bytes()))
                .orElse("tx - (no sender in this run)");
        String rx = s.rx().map(r -> String.format(Locale.ROOT, "rx %d frames %d bytes", r.window().frames(), r.window().bytes()))
                .orElse("rx - (no receiver in this run)");
        // no frame sent in the window: no loss to report (n/a, not 0); one end only: loss unknown
        String lost = s.lossPercent().isPresent() ? Long.toString(s.lost().getAsLong())
                : s.lost().isPresent() ? "n/a" : "unknown (one end only)";
        String order = s.rx().map(r -> String.format(Locale.ROOT, ", reordered %d, duplicates %d", r.reordered(), r.duplicates()))
                .orElse("");
        String rates = String.format(Locale.ROOT, "tx %s, rx %s",
                s.tx().map(t -> rate(t.framesPerSecond(), t.bitsPerSecond())).orElse("-"),
                s.rx().map(r -> rate(r.framesPerSecond(), r.bitsPerSecond())).orElse("-"));
        String drops = s.rx().map(r -> ", kernel drops " + r.ring().drops()).orElse("");
        return String.format(Locale.ROOT, "stream %d ethertype %s: %s, %s, lost %s%s, %s (%d-byte frames)%s, queue %s",
                s.streamId(), hex(s.etherType()), tx, rx, lost, order, rates, s.frameSize(), drops,
                s.queue() < 0 ? "not steered" : Long.toString(s.queue()));
    }

    static String cpuLine(RawResult r) {
        String tx = r.sender().map(x -> String.format(Locale.ROOT, "sender %.3f s", x.cpuNanos() / 1e9)).orElse("no sender");
        String rx = r.receiver().map(x -> String.format(Locale.ROOT, "receiver %.3f s; rx timestamps: %s; steering: %s",
                x.cpuNanos() / 1e9, x.timestamping().label(), x.steering().note())).orElse("no receiver");
        return "# cpu: " + tx + ", " + rx;
    }

    static String pacingLine(RawPacing p) {
        if (!p.credited()) {
            return "# pacing: " + p.governed().label() + (p.governed() == RawPacing.Governor.RATE ? " (--rate)" : " (full rate)");
        }
        return String.format(Locale.ROOT, "# pacing: %s (receiver credit %d frames in flight per stream, ring holds %d; "
                + "waited for credit %d times; at most %d in flight)", p.governed().label(), p.creditFrames(), p.ringFrames(),
                p.creditWaits(), p.maxInFlight());
    }

    static String nicLine(NicCounters.Delta d, NicCounter packets, NicCounter bytes, NicCounter dropped) {
        return String.format(Locale.ROOT, "# %s counters over the run: %s %d, %s %d, %s %d", d.interfaceName(),
                packets.file(), d.get(packets), bytes.file(), d.get(bytes), dropped.file(), d.get(dropped));
    }

    static String rate(OptionalDouble fps, OptionalDouble bps) {
        if (fps.isEmpty() || bps.isEmpty()) {
            return "- frames/s";
        }
        return String.format(Locale.ROOT, "%.0f frames/s %.3f Mbit/s", fps.getAsDouble(), bps.getAsDouble() / 1e6);
    }
}
