package io.linerate.peers.agent.client;

import io.linerate.core.Better;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A raw-frame run between this host and a peer agent ({@link RemoteRaw}), with both ends' own
 * counts. It is valid when both ends' own results are and every frame sent in the measured window
 * arrived, on every stream (zero loss, as a raw run with both ends in one JVM). {@link #metrics()}
 * gives each end's own metrics with {@code "host":"local"} or {@code "host":"remote"}, and per
 * stream {@code raw_lost_frames} (frames the sender sent in its window − distinct frames of the
 * window the receiver got, labelled {@code ethertype} and {@code frame_size}) at the receiver's
 * host. Each end counts by its own clock; frames belong to the window by the phase the sender wrote
 * in them, so the counts need no clock comparison.
 *
 * @param spec what was asked: this host's end, the peer and its interface
 * @param localResult this host's end as its transport reports it
 * @param local this host's counts
 * @param remote the agent's counts
 * @param clock {@code "same host"} or {@code "unsynchronised"}
 */
public record RemoteRawResult(RawTransferSpec spec, MeasurementResult localResult, RawEndReport local,
                              RawEndReport remote, String clock) implements MeasurementResult {
    /** Host of the agent's metrics. */
    public static final String REMOTE = "remote";

    /** @return the sending end's counts */
    public RawEndReport sender() {
        return local.sender() ? local : remote;
    }

    /** @return the receiving end's counts */
    public RawEndReport receiver() {
        return local.sender() ? remote : local;
    }

    /** @return frames the sender sent in the window minus distinct window frames the receiver got, on the stream of {@code etherType} */
    public OptionalLong lost(int etherType) {
        Optional<RawEndReport.StreamCounts> tx = sender().stream(etherType);
        Optional<RawEndReport.StreamCounts> rx = receiver().stream(etherType);
        return tx.isPresent() && rx.isPresent() ? OptionalLong.of(tx.get().windowFrames() - rx.get().windowFrames())
                : OptionalLong.empty();
    }

    @Override
    public List<String> invalidReasons() {
        List<String> out = new ArrayList<>(localResult.invalidReasons());
        remote.invalidReasons().forEach(r -> out.add("the agent's end: " + r));
        for (int e : spec.etherTypes()) {
            OptionalLong lost = lost(e);
            String type = String.format(Locale.ROOT, "0x%04x", e);
            if (lost.isEmpty()) {
                out.add("stream " + type + ": an end did not report it");
            } else if (lost.getAsLong() > 0) {
                out.add(String.format(Locale.ROOT, "stream %s: %d of %d frames sent in the window were lost; allowed: 0",
                        type, lost.getAsLong(), sender().stream(e).orElseThrow().windowFrames()));
            } else if (lost.getAsLong() < 0) {
                out.add(String.format(Locale.ROOT, "stream %s: %d more distinct frames of the window arrived than were sent:"
                        + " another sender of this ethertype is on the link", type, -lost.getAsLong()));
            }
        }
        return out;
    }

    @Override
    public List<Metric> metrics() {
        List<Metric> out = new ArrayList<>(localResult.metrics());
        out.addAll(remote.metrics());
        String at = local.sender() ? REMOTE : Metric.LOCAL;
        double t = localResult.metrics().stream().mapToDouble(Metric::timeSeconds).max().orElse(0);
        for (int e : spec.etherTypes()) {
            OptionalLong lost = lost(e);
            if (lost.isPresent() && lost.getAsLong() >= 0 && sender().stream(e).orElseThrow().windowFrames() > 0) {
                out.add(new Metric("raw_lost_frames", lost.getAsLong(), "frames", at, t,
                        Map.of("ethertype", String.format(Locale.ROOT, "0x%04x", e), "frame_size",
                                Integer.toString(spec.frameSize())), Better.LOWER));
            }
        }
        return out;
    }

    @Override
    public JsonObject detailJson() {
        List<JsonObject> streams = new ArrayList<>();
        int i = 0;
        for (int e : spec.etherTypes()) {
            JsonObject s = JsonObject.create().put("stream", i++).put("ethertype", String.format(Locale.ROOT, "0x%04x", e));
            Optional<RawEndReport.StreamCounts> tx = sender().stream(e);
            Optional<RawEndReport.StreamCounts> rx = receiver().stream(e);
            putCount(s, "tx_frames", tx.map(RawEndReport.StreamCounts::windowFrames));
            putCount(s, "rx_frames", rx.map(RawEndReport.StreamCounts::windowFrames));
            putCount(s, "lost", lost(e).isPresent() ? Optional.of(lost(e).getAsLong()) : Optional.empty());
            putCount(s, "tx_frames_total", tx.map(RawEndReport.StreamCounts::totalFrames));
            putCount(s, "rx_frames_total", rx.map(RawEndReport.StreamCounts::totalFrames));
            streams.add(s);
        }
        return JsonObject.create().put("tx", sender().interfaceName()).put("rx", receiver().interfaceName())
                .put("tx_host", local.sender() ? Metric.LOCAL : REMOTE).put("rx_host", local.sender() ? REMOTE : Metric.LOCAL)
                .put("peer", spec.endpoint().toString()).put("frame_size", spec.frameSize()).putObjects("streams", streams)
                .put("local", local.json().put("result", localResult.detailJson())).put("remote", remote.json())
                .put("clock", clock).put("valid", valid()).putStrings("reasons", invalidReasons());
    }

    private static void putCount(JsonObject o, String key, Optional<Long> v) {
        if (v.isPresent()) {
            o.put(key, v.get());
        } else {
            o.putNull(key);
        }
    }
}
