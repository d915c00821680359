package io.linerate.core.latency;

import io.linerate.core.Affinity;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;

/**
 * The results of a ping-pong sweep and their output formats: the sfnt-pingpong table, ktap
 * metrics, and HdrHistogram logs of the raw samples ({@link io.linerate.core.sink.LatencyJson#latency}
 * writes its JSON). Every format says whether
 * values are half round trips or round trips, and how precise they are ({@link #precision()});
 * every number is written with {@link Locale#ROOT}.
 *
 * @param facts the run facts for the table header and JSON
 * @param mode half-RTT or RTT
 * @param percentile the chosen percentile, in (0, 100]
 * @param sizes one entry per message size, in the order run
 * @param notes remarks that qualify the results (such as a closed-loop tail warning); may be empty
 * @param affinity each pinned end's CPU set as read back ({@code --affinity}); empty when neither end was pinned
 */
public record LatencyReport(RunFacts facts, LatencyMode mode, double percentile, List<SizeLatency> sizes,
                            List<String> notes, Optional<AffinityReadBack> affinity) {
    /** Value of {@code format} in the JSON document ({@link io.linerate.core.sink.LatencyJson#latency}). */
    public static final String JSON_FORMAT = "linerate-latency";
    /** Version of the JSON document and of the raw log comment. */
    public static final int JSON_VERSION = 1;
    /** Column names of the table, sfnt-pingpong's. */
    public static final String COLUMNS = "#\tsize\tmean\tmin\tmedian\tmax\t%ile\tstddev\titer";

    /** @throws IllegalArgumentException if {@code percentile} is outside (0, 100] */
    public LatencyReport {
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(mode, "mode");
        LatencyStats.checkPercentile(percentile);
        sizes = List.copyOf(sizes);
        notes = List.copyOf(notes);
        Objects.requireNonNull(affinity, "affinity");
    }

    /** A report of ends that were not pinned. */
    public LatencyReport(RunFacts facts, LatencyMode mode, double percentile, List<SizeLatency> sizes, List<String> notes) {
        this(facts, mode, percentile, sizes, notes, Optional.empty());
    }

    /** A report without notes. */
    public LatencyReport(RunFacts facts, LatencyMode mode, double percentile, List<SizeLatency> sizes) {
        this(facts, mode, percentile, sizes, List.of());
    }

    /**
     * Writes the table as sfnt-pingpong prints it: {@code #} lines of run facts (with the pinned ends'
     * CPU sets when {@code --affinity} pinned one), the column line
     * {@value #COLUMNS}, then one tab-separated row per size, each starting with a tab, values in
     * ns rounded to integers. A size without samples shows {@code -} for every value.
     */
    public void writeTable(PrintWriter out) {
        out.print("# linerate: " + facts.version() + "\n");
        out.print("# date: " + facts.date() + "\n");
        out.print("# uname: " + facts.uname() + "\n");
        out.print("# cpu: " + facts.cpu() + "\n");
        out.print("# jvm: " + facts.jvm() + "\n");
        out.print("# options: " + facts.options() + "\n");
        out.print("# values: " + valuesDescription() + "\n");
        out.print("# percentile: " + LatencyStats.formatPercentile(percentile) + "\n");
        out.print("# precision: " + precision() + "\n");
        affinity.ifPresent(a -> out.print("# affinity: client " + a.client().orElse(Affinity.ANY) + ", server "
                + a.server().orElse(Affinity.ANY) + " (each pinned thread's Cpus_allowed_list, read back)\n"));
        for (String note : notes) {
            out.print("# note: " + note + "\n");
        }
        out.print("#\n");
        out.print(COLUMNS + "\n");
        for (SizeLatency s : sizes) {
            LatencyStats st = s.stats(percentile, mode);
            out.print("\t" + s.sizeBytes() + "\t" + cell(st.mean()) + "\t" + cell(st.min()) + "\t"
                    + cell(st.median()) + "\t" + cell(st.max()) + "\t" + cell(st.atPercentile()) + "\t"
                    + cell(st.stdDeviation()) + "\t" + st.iterations() + "\n");
        }
        out.flush();
    }

    /** @return the table of {@link #writeTable(PrintWriter)} as a string with {@code \n} line ends */
    public String table() {
        java.io.StringWriter w = new java.io.StringWriter();
        writeTable(new PrintWriter(w));
        return w.toString();
    }

    /**
     * @return decimal digits of precision of the histograms (the least of the sizes'; the fixed
     *     shape's {@value LatencyHistograms#SIGNIFICANT_DIGITS} when there are none)
     */
    public int significantDigits() {
        return sizes.stream().mapToInt(s -> s.roundTrips().significantDigits()).min()
                .orElse(LatencyHistograms.SIGNIFICANT_DIGITS);
    }

    /**
     * @return how precise the values are, as every output states it: {@code HdrHistogram, 3
     *     significant digits (values within 0.1 %); min and max exact, percentiles clamped to them}
     */
    public String precision() {
        return ExactRangeHistogram.precision(significantDigits());
    }

    private String valuesDescription() {
        return mode == LatencyMode.HALF_RTT ? "half-RTT in ns (round-trip time / 2)" : "RTT in ns (round-trip time)";
    }

    private static String cell(OptionalDouble v) {
        return v.isPresent() ? Long.toString(Math.round(v.getAsDouble())) : "-";
    }

    /**
     * Metrics for ktap or JSON Lines sinks: per size {@code latency_mean}, {@code latency_min},
     * {@code latency_p50}, {@code latency_p<percentile>} (such as {@code latency_p99}),
     * {@code latency_max} and {@code latency_stddev}, in ns, lower is better, labelled
     * {@code size} (bytes) and {@code latency} ({@code half-rtt} or {@code rtt}). A size without
     * samples yields no metric.
     *
     * @param labels further labels for every metric (such as the protocol); may be empty
     */
    public List<Metric> metrics(Map<String, String> labels) {
        List<Metric> out = new ArrayList<>();
        String pName = "latency_p" + LatencyStats.formatPercentile(percentile);
        for (SizeLatency s : sizes) {
            LatencyStats st = s.stats(percentile, mode);
            if (st.iterations() == 0) {
                continue;
            }
            Map<String, String> l = new java.util.TreeMap<>(labels);
            l.put("size", Integer.toString(s.sizeBytes()));
            l.put("latency", mode.key());
            double t = s.endSeconds();
            out.add(metric("latency_mean", st.mean(), t, l));
            out.add(metric("latency_min", st.min(), t, l));
            out.add(metric("latency_p50", st.median(), t, l));
            if (!pName.equals("latency_p50")) {
                out.add(metric(pName, st.atPercentile(), t, l));
            }
            out.add(metric("latency_max", st.max(), t, l));
            out.add(metric("latency_stddev", st.stdDeviation(), t, l));
        }
        return out;
    }

    private static Metric metric(String name, OptionalDouble v, double t, Map<String, String> labels) {
        return new Metric(name, v.getAsDouble(), "ns", Metric.LOCAL, t, labels, Better.LOWER);
    }

    /**
     * Writes each size's round-trip samples to {@code dir/size-<bytes>.hlog} as an HdrHistogram
     * log (HistogramLogWriter: format version, a comment naming linerate, the unit, the mode, the
     * exact min and max of the round trips and the precision, start time, legend, one interval
     * histogram covering the measured part), which HistogramLogAnalyzer opens. Values in the log
     * are round-trip times in ns even when the table reports half of them; the comment says so.
     *
     * @param dir created if missing
     * @param startEpochMillis the run's start, ms since the epoch, for the log's start time
     * @return the files written, in size order
     * @throws IOException if the directory or a file cannot be written
     */
    public List<Path> writeRawLogs(Path dir, long startEpochMillis) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        double offset = 0;
        for (SizeLatency s : sizes) {
            Path file = dir.resolve("size-" + s.sizeBytes() + ".hlog");
            try (PrintStream ps = new PrintStream(Files.newOutputStream(file), false, StandardCharsets.UTF_8)) {
                HistogramLogWriter w = new HistogramLogWriter(ps);
                w.outputLogFormatVersion();
                ExactRangeHistogram rt = s.roundTrips();
                w.outputComment(String.format(Locale.ROOT,
                        "linerate %s ping-pong, message size %d bytes, values: round-trip time in ns (report: %s)%s; %s",
                        facts.version(), s.sizeBytes(), mode.label(), rt.count() == 0 ? ""
                                : ", exact min " + rt.min().getAsLong() + " max " + rt.max().getAsLong(),
                        rt.precision()));
                w.outputStartTime(startEpochMillis);
                w.setBaseTime(startEpochMillis);
                w.outputLegend();
                double length = s.measuredNanos() / 1e9;
                Histogram h = rt.toHistogram();
                h.setStartTimeStamp(startEpochMillis + Math.round(offset * 1000));
                h.setEndTimeStamp(startEpochMillis + Math.round((offset + length) * 1000));
                w.outputIntervalHistogram(offset, offset + length, h);
                offset += length;
                ps.flush();
                if (ps.checkError()) {
                    throw new IOException("cannot write " + file);
                }
            } catch (FileNotFoundException e) {
                throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
            }
            written.add(file);
        }
        return written;
    }
}
