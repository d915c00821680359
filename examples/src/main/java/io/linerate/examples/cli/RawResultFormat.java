package io.linerate.examples.cli;

import io.linerate.afpacket.CounterEvent;
import io.linerate.afpacket.NicCounter;
import io.linerate.afpacket.NicCounters;
import io.linerate.afpacket.RawReceiverReport;
import io.linerate.afpacket.RawResult;
import io.linerate.afpacket.RawSenderReport;
import io.linerate.afpacket.RawStreamResult;
import io.linerate.afpacket.RawStreamRx;
import io.linerate.afpacket.RawStreamTx;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The metrics and the JSON of a raw run, as {@code raw --ktap} and {@code raw --json} write them:
 * per stream {@code raw_rx_frames_per_s}, {@code raw_rx_bits_per_s}, {@code raw_tx_frames_per_s}
 * and {@code raw_lost_frames} (absent when loss is unknown or no frame was sent), and the run's
 * counts, rates, CPU time, RX stamp buckets and interface counters with their events.
 */
final class RawResultFormat {
    private RawResultFormat() {}

    static List<Metric> metrics(RawResult r, double t) {
        java.util.ArrayList<Metric> m = new java.util.ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            Map<String, String> labels = Map.of("ethertype", RawCommand.hex(s.etherType()), "frame_size", Integer.toString(s.frameSize()));
            s.rx().ifPresent(x -> {
                x.framesPerSecond().ifPresent(v -> m.add(new Metric("raw_rx_frames_per_s", v, "frames/s", Metric.LOCAL, t, labels, Better.HIGHER)));
                x.bitsPerSecond().ifPresent(v -> m.add(new Metric("raw_rx_bits_per_s", v, "bit/s", Metric.LOCAL, t, labels, Better.HIGHER)));
            });
            s.tx().ifPresent(x -> x.framesPerSecond()
                    .ifPresent(v -> m.add(new Metric("raw_tx_frames_per_s", v, "frames/s", Metric.LOCAL, t, labels, Better.HIGHER))));
            if (s.lossPercent().isPresent()) { // no frame sent in the window, or one end only: no loss to report, not 0
                m.add(new Metric("raw_lost_frames", s.lost().getAsLong(), "frames", Metric.LOCAL, t, labels, Better.LOWER));
            }
        }
        r.sender().ifPresent(x -> m.add(new Metric("raw_sender_cpu", x.cpuNanos(), "ns", Metric.LOCAL, t, Map.of(), Better.LOWER)));
        r.receiver().ifPresent(x -> m.add(new Metric("raw_receiver_cpu", x.cpuNanos(), "ns", Metric.LOCAL, t, Map.of(), Better.LOWER)));
        return m;
    }

    static JsonObject json(RawResult r) {
        JsonObject n = JsonObject.create();
        n.put("tx", r.spec().txInterface().orElse(null));
        n.put("rx", r.spec().rxInterface().orElse(null));
        n.put("frame_size", r.spec().frameSize());
        n.put("measured_ns", r.measuredNanos());
        List<JsonObject> streams = new ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            JsonObject o = JsonObject.create();
            o.put("stream", s.streamId());
            o.put("ethertype", RawCommand.hex(s.etherType()));
            o.put("frame_size", s.frameSize());
            Optional<RawStreamTx> tx = s.tx();
            Optional<RawStreamRx> rx = s.rx();
            putCount(o, "tx_frames", tx.map(x -> x.window().frames()));
            putCount(o, "rx_frames", rx.map(x -> x.window().frames()));
            putCount(o, "tx_bytes", tx.map(x -> x.window().bytes()));
            putCount(o, "rx_bytes", rx.map(x -> x.window().bytes()));
            putCount(o, "lost", s.lossPercent().isPresent() ? Optional.of(s.lost().getAsLong()) : Optional.empty());
            putCount(o, "reordered", rx.map(RawStreamRx::reordered));
            putCount(o, "duplicates", rx.map(RawStreamRx::duplicates));
            o.put("frames_per_s", rx.map(RawStreamRx::framesPerSecond).orElse(OptionalDouble.empty()));
            o.put("bits_per_s", rx.map(RawStreamRx::bitsPerSecond).orElse(OptionalDouble.empty()));
            o.put("tx_frames_per_s", tx.map(RawStreamTx::framesPerSecond).orElse(OptionalDouble.empty()));
            o.put("tx_bits_per_s", tx.map(RawStreamTx::bitsPerSecond).orElse(OptionalDouble.empty()));
            putCount(o, "tx_frames_total", tx.map(x -> x.total().frames()));
            putCount(o, "rx_frames_total", rx.map(x -> x.total().frames()));
            putCount(o, "kernel_packets", rx.map(x -> x.ring().packets()));
            putCount(o, "kernel_drops", rx.map(x -> x.ring().drops()));
            o.put("queue", s.queue());
            streams.add(o);
        }
        n.putObjects("streams", streams);
        JsonObject cpu = JsonObject.create();
        putCount(cpu, "sender", r.sender().map(RawSenderReport::cpuNanos));
        putCount(cpu, "receiver", r.receiver().map(RawReceiverReport::cpuNanos));
        n.put("cpu_ns", cpu);
        putCount(n, "tx_retries", r.sender().map(RawSenderReport::retries));
        r.receiver().ifPresent(x -> {
            n.put("timestamps", x.timestamping().label());
            n.put("steered", x.steering().steered());
            n.put("steering", x.steering().note());
            List<JsonObject> buckets = new ArrayList<>();
            for (io.linerate.afpacket.StampInterval b : x.intervals()) {
                buckets.add(JsonObject.create()
                        .put("start", b.startSeconds())
                        .put("end", b.endSeconds())
                        .put("frames", b.frames())
                        .put("frames_per_s", b.framesPerSecond())
                        .put("bits_per_s", b.bitsPerSecond()));
            }
            n.putObjects("rx_intervals", buckets);
        });
        r.txNic().ifPresent(d -> n.put("tx_nic", nic(d)));
        r.rxNic().ifPresent(d -> n.put("rx_nic", nic(d)));
        n.put("loss_unknown", r.lossUnknown().orElse(null));
        n.put("valid", r.valid());
        n.putStrings("reasons", r.reasons());
        r.error().ifPresent(e -> n.put("error", e));
        return n;
    }

    private static void putCount(JsonObject o, String key, Optional<Long> v) {
        if (v.isPresent()) {
            o.put(key, v.get());
        } else {
            o.putNull(key);
        }
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
