package io.linerate.examples.cli;

import io.linerate.core.TransferException;
import io.linerate.core.search.LossCurve;
import io.linerate.core.search.LossSweep;
import io.linerate.core.search.LossSweepFormat;
import io.linerate.core.search.LossSweepResult;
import io.linerate.core.search.SearchResult;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.Trial;
import io.linerate.core.sink.KtapDocument;
import io.linerate.regression.LossChart;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code search --loss-sweep} (RFC 2544's frame loss rate test, section 26.3, through {@link LossSweep})
 * and {@code search --plot}, beside the rate search of {@link SearchCommand}.
 */
final class LossSweepRun {
    private LossSweepRun() {}

    /**
     * Runs the sweep and prints the steps table, the closing line and, with {@code --ktap}, one
     * {@code <marker>_sweep_loss_pct} per step under the test {@code <marker>_loss_sweep}.
     *
     * @return {@link Linerate#OK}: a step's loss is the test's result, not a failure
     */
    static int run(SearchSpec search, Trial trial, String marker, String header, OutputFormat fmt, Path plot,
                   PrintWriter out) throws TransferException, IOException {
        long start = System.nanoTime();
        LossSweepResult r = LossSweep.run(search.maxBitsPerSecond(), trial);
        double t = (System.nanoTime() - start) / 1e9;
        String duration = durationLine(search);
        switch (fmt) {
            case json -> out.println(LossSweepFormat.json(r, marker, search).toJson());
            case ktap -> {
                KtapDocument doc = KtapDocument.start(out, 1);
                doc.diagnostic(header);
                LossSweepFormat.table(r).forEach(doc::diagnostic);
                doc.diagnostic(duration);
                r.notes().forEach(n -> doc.diagnostic("note: " + n));
                doc.diagnostic(LossSweepFormat.endLine(r));
                LossSweepFormat.metrics(r, marker, t).forEach(doc.metrics()::accept);
                doc.ok(marker + "_loss_sweep");
                doc.end();
            }
            case text -> {
                out.println("# " + header);
                LossSweepFormat.table(r).forEach(out::println);
                out.println("# " + duration);
                r.notes().forEach(n -> out.println("# note: " + n));
                out.println(LossSweepFormat.endLine(r));
            }
        }
        out.flush();
        if (plot != null) {
            write(plot, LossChart.svg(LossCurve.of(r, marker), marker + " frame loss rate (RFC 2544 section 26.3)"));
        }
        return Linerate.OK;
    }

    /** Writes the search's chart to {@code plot}. */
    static void plot(SearchResult r, String marker, Path plot) throws IOException {
        write(plot, LossChart.svg(LossCurve.of(r, marker), marker + " " + r.kind().toUpperCase(Locale.ROOT)
                + " search (RFC 2544 section 26.1)"));
    }

    /**
     * @throws IllegalArgumentException before any trial, when the chart's directory does not exist
     */
    static void checkPlotPath(Path plot) {
        if (plot == null) {
            return;
        }
        Path dir = plot.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new IllegalArgumentException("--plot " + plot + ": directory " + dir + " does not exist; allowed: "
                    + "a file in an existing directory");
        }
    }

    private static void write(Path plot, String svg) throws IOException {
        Files.writeString(plot, svg, StandardCharsets.UTF_8);
    }

    private static String durationLine(SearchSpec s) {
        return String.format(Locale.ROOT, "steps of %.3f s each, warm-up of %.3f s left out of each, interval %.3f s: %s",
                s.trial().toNanos() / 1e9, s.warmup().toNanos() / 1e9, s.interval().toNanos() / 1e9,
                s.trial().compareTo(SearchSpec.RFC2544_TRIAL) >= 0 ? "RFC 2544's 60 s or more"
                        : "shorter than the 60 s RFC 2544 asks for");
    }
}
