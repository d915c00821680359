package io.linerate.examples.cli;

import io.linerate.afpacket.RawFrameSearch;
import io.linerate.afpacket.RawSearchFormat;
import io.linerate.afpacket.RawSizeResult;
import io.linerate.core.Clock;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.sink.KtapDocument;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * {@code linerate search --tx IF --rx IF}: RFC 2544's throughput test over raw frames, one search per
 * frame size ({@link RawFrameSearch}), rates in L2 bit/s. Prints per size the trials table and the
 * found rate in frames/s and bit/s at L2 and on the wire, with the percentage of line rate where
 * the link is real; {@code --ktap} one test per size with {@code raw_<size>_ndr_mbps},
 * {@code _ndr_fps} and {@code _ndr_line_rate_pct}; {@code --json} one object.
 */
final class RawSearchRun {
    private final RawSearchOptions raw;
    private final SearchSpec search;
    private final String transportName;
    private final OutputFormat fmt;
    private final PrintWriter out;

    /**
     * @param raw the interfaces and frame sizes
     * @param search the search at every size, rates in L2 bit/s
     * @param transportName the transport by name, or null for the first that runs raw frames
     */
    RawSearchRun(RawSearchOptions raw, SearchSpec search, String transportName, OutputFormat fmt, PrintWriter out) {
        this.raw = raw;
        this.search = search;
        this.transportName = transportName;
        this.fmt = fmt;
        this.out = out;
    }

    /**
     * @param progress hears of each trial, and of each size's end
     * @return {@link Linerate#OK} when every size found a rate, {@link Linerate#FAILED} otherwise
     * @throws IllegalArgumentException for bad usage (one end only, a bad frame size), naming the value
     * @throws TransferException when a trial cannot run
     */
    int run(SearchProgress progress) throws TransferException {
        if (raw.tx == null || raw.rx == null) {
            throw new IllegalArgumentException(raw.tx != null ? "--tx " + raw.tx + " without --rx: a search over raw frames "
                    + "counts loss at both ends; allowed: --tx IF --rx IF"
                    : raw.rx != null ? "--rx " + raw.rx + " without --tx: a search over raw frames counts loss at both ends; "
                    + "allowed: --tx IF --rx IF"
                    : "--frame-sizes without --tx/--rx: frame sizes are for a search over raw frames; allowed: --tx IF --rx IF "
                    + "--frame-sizes 60,124,...");
        }
        List<Integer> sizes = raw.sizes();
        RawTransferSpec base = RawTransferSpec.builder(raw.tx, raw.rx).batch(raw.batch).hardwareTimestamps(false).build();
        RawFrameSearch.checkFrameSizes(base, sizes);
        String transport = Transports.select(transportName, base).name();
        String header = String.format(Locale.ROOT, "linerate %s search over raw frames on %s: %s -> %s, frame sizes %s B, "
                + "rates in L2 bit/s (frame bytes without FCS x 8), %s", Linerate.version(), transport, raw.tx, raw.rx,
                sizes.toString().replaceAll("[\\[\\] ]", ""), search);
        KtapDocument doc = fmt == OutputFormat.ktap ? KtapDocument.start(out, sizes.size()) : null;
        long start = System.nanoTime();
        Consumer<RawSizeResult> each = s -> { };
        if (fmt == OutputFormat.ktap) {
            doc.diagnostic(header);
            doc.diagnostic(RawSearchFormat.frameSizeNote(sizes));
            each = s -> {
                comments(s).forEach(doc::diagnostic);
                SearchFormat.table(s.search()).forEach(doc::diagnostic);
                doc.diagnostic(RawSearchFormat.sizeLine(s));
                RawSearchFormat.metrics(List.of(s), (System.nanoTime() - start) / 1e9).forEach(doc.metrics()::accept);
                String test = SearchFormat.metricName(s.search(), s.marker()).replace("_mbps", "");
                if (s.search().confirmed()) {
                    doc.ok(test);
                } else {
                    doc.fail(test, SearchFormat.failReason(s.search()));
                }
                out.flush();
            };
        } else if (fmt == OutputFormat.text) {
            out.println("# " + header);
            out.println("# " + RawSearchFormat.frameSizeNote(sizes));
            each = s -> {
                comments(s).forEach(c -> out.println("# " + c));
                SearchFormat.table(s.search()).forEach(out::println);
                out.println(RawSearchFormat.sizeLine(s));
                out.flush();
            };
        }
        List<RawSizeResult> results = RawFrameSearch.run(base, sizes, search, transportName, Clock.system(),
                each.andThen(s -> progress.sizeDone()), progress);
        switch (fmt) {
            case json -> out.println(RawSearchFormat.json(results, raw.tx, raw.rx).put("search_spec", search.toString()).toJson());
            case ktap -> doc.end();
            case text -> { }
        }
        out.flush();
        return results.stream().allMatch(s -> s.search().confirmed()) ? Linerate.OK : Linerate.FAILED;
    }

    /** @return what precedes a size's trials table: its heading, the trial duration and the search's notes */
    private static List<String> comments(RawSizeResult s) {
        SearchResult r = s.search();
        List<String> l = new ArrayList<>();
        l.add(String.format(Locale.ROOT, "frame size %d B (RFC 2544's %d B):", s.frameSize(), s.rfc2544FrameSize()));
        l.add(SearchFormat.trialDurationLine(r));
        r.notes().forEach(n -> l.add("note: " + n));
        return l;
    }
}
