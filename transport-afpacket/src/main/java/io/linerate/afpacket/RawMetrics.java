package io.linerate.afpacket;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The metrics of a raw run, as {@code raw --ktap} writes them and the gate reads them. Per stream,
 * labelled {@code ethertype} ({@code 0x88b5}) and {@code frame_size} (bytes):
 * {@code raw_rx_frames_per_s} (frames/s) and {@code raw_rx_bits_per_s} (L2 bit/s, frame bytes × 8)
 * with a receiver, {@code raw_tx_frames_per_s} (frames/s) with a sender, and
 * {@code raw_lost_frames} (frames sent in the window − distinct frames received) only where loss
 * is known: absent, not 0, when one end only was in the run or no frame was sent in the window.
 * Per run: {@code raw_sender_cpu} and {@code raw_receiver_cpu} (ns) for the ends in it.
 */
public final class RawMetrics {
    private RawMetrics() {}

    /**
     * @param r a raw result
     * @param timeSeconds the time every metric is stamped with, seconds since the start of the test run
     * @return its metrics, streams in the spec's order, then the CPU times
     */
    public static List<Metric> of(RawResult r, double timeSeconds) {
        double t = timeSeconds;
        List<Metric> m = new ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            Map<String, String> labels = Map.of("ethertype", hex(s.etherType()), "frame_size", Integer.toString(s.frameSize()));
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

    /**
     * @param etherType an ethertype
     * @return it as metrics label it and JSON writes it: {@code 0x} and four lower-case hex digits
     */
    public static String hex(int etherType) {
        return String.format(Locale.ROOT, "0x%04x", etherType);
    }
}
