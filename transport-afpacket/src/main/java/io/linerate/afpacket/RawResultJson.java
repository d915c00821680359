package io.linerate.afpacket;

import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * The JSON object of a raw run, the {@code "detail"} of its result's JSON
 * ({@link io.linerate.core.sink.ResultJson#of}): {@code tx, rx} (interface names, null for an end
 * not in the run), {@code frame_size} (bytes), {@code measured_ns}; per stream {@code stream,
 * ethertype, frame_size, tx_frames, rx_frames, tx_bytes, rx_bytes, lost, reordered, duplicates}
 * (window counts), {@code frames_per_s, bits_per_s, tx_frames_per_s, tx_bits_per_s} (frames/s and
 * L2 bit/s), {@code tx_frames_total, rx_frames_total} (warm-up included), {@code kernel_packets,
 * kernel_drops} (the RX ring's), {@code queue} (−1 when not steered); then {@code cpu_ns}
 * ({@code sender}, {@code receiver}), {@code tx_retries}, with a sender {@code pacing}
 * ({@code governed}: {@code credit}, {@code rate} or {@code none}; {@code credit_frames},
 * {@code ring_frames}, {@code ring_bytes}, {@code credit_waits}, {@code max_in_flight}, null
 * without credit), with a receiver {@code timestamps,
 * steered, steering, rx_intervals}, the interface counters {@code tx_nic} and {@code rx_nic} with
 * their {@code events} and {@code in_doubt}, {@code loss_unknown}, {@code valid}, {@code reasons}
 * and {@code error} when the run ended early. A count an end not in the run would give is null,
 * and so is a loss that is not known; never 0.
 */
public final class RawResultJson {
    private RawResultJson() {}

    /**
     * @param r a raw result
     * @return its object
     */
    public static JsonObject of(RawResult r) {
        JsonObject n = JsonObject.create();
        n.put("tx", r.spec().txInterface().orElse(null));
        n.put("rx", r.spec().rxInterface().orElse(null));
        n.put("frame_size", r.spec().frameSize());
        n.put("measured_ns", r.measuredNanos());
        List<JsonObject> streams = new ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            streams.add(stream(s));
        }
        n.putObjects("streams", streams);
        JsonObject cpu = JsonObject.create();
        putCount(cpu, "sender", r.sender().map(RawSenderReport::cpuNanos));
        putCount(cpu, "receiver", r.receiver().map(RawReceiverReport::cpuNanos));
        n.put("cpu_ns", cpu);
        putCount(n, "tx_retries", r.sender().map(RawSenderReport::retries));
        r.sender().ifPresent(x -> n.put("pacing", pacing(x.pacing())));
        r.receiver().ifPresent(x -> {
            n.put("timestamps", x.timestamping().label());
            n.put("steered", x.steering().steered());
            n.put("steering", x.steering().note());
            List<JsonObject> buckets = new ArrayList<>();
            for (StampInterval b : x.intervals()) {
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

    private static JsonObject pacing(RawPacing p) {
        JsonObject o = JsonObject.create();
        o.put("governed", p.governed().label());
        putCount(o, "credit_frames", p.credited() ? Optional.of(p.creditFrames()) : Optional.empty());
        putCount(o, "ring_frames", p.credited() ? Optional.of(p.ringFrames()) : Optional.empty());
        putCount(o, "ring_bytes", p.credited() ? Optional.of(p.ringBytes()) : Optional.empty());
        putCount(o, "credit_waits", p.credited() ? Optional.of(p.creditWaits()) : Optional.empty());
        putCount(o, "max_in_flight", p.credited() ? Optional.of(p.maxInFlight()) : Optional.empty());
        return o;
    }

    private static JsonObject stream(RawStreamResult s) {
        JsonObject o = JsonObject.create();
        o.put("stream", s.streamId());
        o.put("ethertype", RawMetrics.hex(s.etherType()));
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
        return o;
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
        // every glitch, ambiguity, possible wrap and reset per counter, only counters that had any
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
