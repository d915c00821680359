package io.linerate.afpacket;

import io.linerate.afpacket.EthernetWire;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The outputs of a raw-frame search sweep ({@link RawFrameSearch}): the note on frame sizes, one
 * found-rate line per size (frames/s, L2 and L1 bit/s, the percentage of line rate or why there is
 * none), the metrics and the JSON. Each size's trials table and found-rate line are
 * {@link SearchFormat}'s, with rates in L2 Mbit/s. Numbers use {@link Locale#ROOT}.
 */
public final class RawSearchFormat {
    private RawSearchFormat() {}

    /**
     * @param frameSizes linerate's sizes, L2 without FCS
     * @return {@code frame sizes are L2 bytes without the 4-byte FCS, which RFC 2544 counts: 60, 124 B here are RFC 2544's 64, 128 B}
     */
    public static String frameSizeNote(List<Integer> frameSizes) {
        return "frame sizes are L2 bytes without the 4-byte FCS, which RFC 2544 counts: "
                + frameSizes.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " B here "
                + (frameSizes.size() == 1 ? "is" : "are") + " RFC 2544's "
                + frameSizes.stream().map(s -> String.valueOf(s + EthernetWire.FCS_BYTES)).collect(Collectors.joining(", ")) + " B";
    }

    /**
     * @return {@code 60 B frames (RFC 2544's 64 B): NDR 1234567 frames/s, 592.592 Mbit/s at L2, 829.629 Mbit/s
     *     on the wire; 8.296% of line rate (eth0 10000 Mb/s: 14880952 frames/s)}, the line rate replaced by
     *     why there is none; or {@code 60 B frames (RFC 2544's 64 B): NDR not found ...}
     */
    public static String sizeLine(RawSizeResult s) {
        String head = String.format(Locale.ROOT, "%d B frames (RFC 2544's %d B): ", s.frameSize(), s.rfc2544FrameSize());
        SearchResult r = s.search();
        if (r.found().isEmpty()) {
            return head + SearchFormat.foundLine(r);
        }
        String line = s.percentOfLineRate().isPresent()
                ? String.format(Locale.ROOT, "%.3f%% of line rate (%s: %.0f frames/s)", s.percentOfLineRate().getAsDouble(),
                        s.link().describe(), s.lineRateFramesPerSecond().getAsDouble())
                : s.link().describe();
        return head + String.format(Locale.ROOT, "%s %.0f frames/s, %.3f Mbit/s at L2, %.3f Mbit/s on the wire (L1, 24 B "
                        + "of preamble, SFD, FCS and gap per frame); %s", r.kind().toUpperCase(Locale.ROOT),
                s.foundFramesPerSecond().getAsDouble(), r.found().getAsLong() / 1e6, s.foundL1BitsPerSecond().getAsDouble() / 1e6,
                line);
    }

    /** @return {@code raw_<size>_ndr_line_rate_pct} (or {@code _pdr_}, {@code _ndr_strict_} for the strict search) */
    public static String lineRateMetricName(RawSizeResult s) {
        return s.marker() + "_" + s.search().seriesKind() + "_line_rate_pct";
    }

    /** @return {@code raw_<size>_ndr_fps} (or {@code _pdr_}, {@code _ndr_strict_} for the strict search) */
    public static String fpsMetricName(RawSizeResult s) {
        return s.marker() + "_" + s.search().seriesKind() + "_fps";
    }

    /**
     * @param timeSeconds the metrics' time, seconds since the run started
     * @return per size with a found rate: {@code raw_<size>_ndr_mbps} (L2 Mbit/s), {@code raw_<size>_ndr_fps}
     *     (frames/s) and, over a real link, {@code raw_<size>_ndr_line_rate_pct} (%); all higher-better,
     *     the percentage too (whatever a {@code %} unit means by default); none for a size where nothing was found
     */
    public static List<Metric> metrics(List<RawSizeResult> sizes, double timeSeconds) {
        List<Metric> out = new ArrayList<>();
        for (RawSizeResult s : sizes) {
            out.addAll(SearchFormat.metrics(s.search(), s.marker(), timeSeconds));
            s.foundFramesPerSecond().ifPresent(fps ->
                    out.add(Metric.of(fpsMetricName(s), fps, "frames/s", timeSeconds, Better.HIGHER)));
            s.percentOfLineRate().ifPresent(p ->
                    out.add(Metric.of(lineRateMetricName(s), p, "%", timeSeconds, Better.HIGHER)));
        }
        return out;
    }

    /**
     * @return one JSON object: the interfaces, the frame-size note, and per size its search
     *     ({@link SearchFormat#json}, rates in L2 bit/s) with frames/s, L1 bit/s and the line rate or
     *     why there is none; figures that do not exist are null
     */
    public static JsonObject json(List<RawSizeResult> sizes, String tx, String rx) {
        List<Integer> frameSizes = sizes.stream().map(RawSizeResult::frameSize).toList();
        List<JsonObject> rows = new ArrayList<>();
        for (RawSizeResult s : sizes) {
            JsonObject j = SearchFormat.json(s.search(), s.marker())
                    .put("frame_size", s.frameSize())
                    .put("rfc2544_frame_size", s.rfc2544FrameSize())
                    .put("found_fps", s.foundFramesPerSecond())
                    .put("found_l1_bps", s.foundL1BitsPerSecond())
                    .put("line_rate_fps", s.lineRateFramesPerSecond())
                    .put("line_rate_pct", s.percentOfLineRate());
            if (s.link().bitsPerSecond().isPresent()) {
                j.put("link_bps", s.link().bitsPerSecond().getAsLong()).putNull("no_line_rate");
            } else {
                j.putNull("link_bps").put("no_line_rate", s.link().noLineRate().orElseThrow());
            }
            rows.add(j);
        }
        return JsonObject.create()
                .put("pattern", "raw-frames")
                .put("tx", tx)
                .put("rx", rx)
                .put("rates", "L2 bit/s: frame bytes without FCS x 8")
                .put("frame_size_note", frameSizeNote(frameSizes))
                .putObjects("sizes", rows);
    }
}
