package io.linerate.core.latency;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.Rates;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.TreeMap;

/**
 * Results of a request/response run as netperf TCP_RR / TCP_CRR and neper tcp_rr / tcp_crr report
 * them: transactions per second in total and per flow, each {@code Δtransactions / Δt} over the
 * measured window, where both ends of the window are a reading of the counters followed by a clock
 * reading (DESIGN rule 1); and the distribution of transaction latency (one whole request and
 * response, plus connect and close for CRR), in ns. Every number is written with {@link Locale#ROOT}.
 *
 * @param facts run facts
 * @param test {@code tcp_rr} or {@code tcp_crr}
 * @param flowTransactions transactions each flow completed in the window
 * @param windowNanos length of the measured window, ns
 * @param latency transaction latencies in the window, all flows merged, ns, with their exact min and max
 * @param percentile the percentile reported beside the median, in (0, 100]
 * @param notes remarks that qualify the results, such as the closed-loop tail warning
 */
public record RrReport(RunFacts facts, String test, List<Long> flowTransactions, long windowNanos,
                       ExactRangeHistogram latency, double percentile, List<String> notes) {
    /** Value of {@code format} in the JSON document ({@link io.linerate.core.sink.LatencyJson#rr}). */
    public static final String JSON_FORMAT = "linerate-rr";
    /** The note every closed-loop result carries. */
    public static final String CLOSED_LOOP_NOTE = "closed loop: each flow waits for a response before its next "
            + "request, so latency at p99 and above understates tail latency (coordinated omission); "
            + "use --rate for an open-loop measurement";

    /** @throws IllegalArgumentException for a negative window or a percentile outside (0, 100] */
    public RrReport {
        Objects.requireNonNull(facts, "facts");
        Objects.requireNonNull(test, "test");
        Objects.requireNonNull(latency, "latency");
        flowTransactions = List.copyOf(flowTransactions);
        notes = List.copyOf(notes);
        if (windowNanos < 0) {
            throw new IllegalArgumentException("window " + windowNanos + " ns is out of range; allowed: >= 0");
        }
        LatencyStats.checkPercentile(percentile);
    }

    /** @return transactions of all flows in the window */
    public long transactions() {
        return flowTransactions.stream().mapToLong(Long::longValue).sum();
    }

    /** @return transactions/s of all flows, empty when the window has no length */
    public OptionalDouble transactionsPerSecond() {
        return Rates.perSecond(transactions(), windowNanos);
    }

    /** @return transactions/s of flow {@code i}, empty when the window has no length */
    public OptionalDouble flowTransactionsPerSecond(int i) {
        return Rates.perSecond(flowTransactions.get(i), windowNanos);
    }

    /**
     * @return how precise the latency values are, as every output states it: {@code HdrHistogram,
     *     3 significant digits (values within 0.1 %); min and max exact, percentiles clamped to them}
     */
    public String precision() {
        return latency.precision();
    }

    /** @return the latency summary (whole transactions, so {@link LatencyMode#RTT}) */
    public LatencyStats stats() {
        return LatencyStats.of(latency, percentile, LatencyMode.RTT);
    }

    /**
     * Writes {@code #} lines of run facts, the histogram's precision and notes, one line per flow,
     * a total line and a latency line: {@code flow 0: 1234 transactions in 1.000000 s, 1234.000 transactions/s}, ...,
     * {@code total: ...}, {@code latency ns: mean 1 min 1 median 1 max 1 p99 1 stddev 0 iter 1}.
     */
    public void writeText(PrintWriter out) {
        out.print("# linerate: " + facts.version() + "\n");
        out.print("# date: " + facts.date() + "\n");
        out.print("# uname: " + facts.uname() + "\n");
        out.print("# cpu: " + facts.cpu() + "\n");
        out.print("# jvm: " + facts.jvm() + "\n");
        out.print("# options: " + facts.options() + "\n");
        out.print("# test: " + test + ", latency of whole transactions in ns\n");
        out.print("# precision: " + precision() + "\n");
        for (String n : notes) {
            out.print("# note: " + n + "\n");
        }
        double secs = windowNanos / 1e9;
        for (int i = 0; i < flowTransactions.size(); i++) {
            out.print(String.format(Locale.ROOT, "flow %d: %d transactions in %.6f s, %s transactions/s", i,
                    flowTransactions.get(i), secs, rate(flowTransactionsPerSecond(i))) + "\n");
        }
        out.print(String.format(Locale.ROOT, "total: %d transactions in %.6f s, %s transactions/s", transactions(),
                secs, rate(transactionsPerSecond())) + "\n");
        LatencyStats s = stats();
        out.print("latency ns: mean " + cell(s.mean()) + " min " + cell(s.min()) + " median " + cell(s.median())
                + " max " + cell(s.max()) + " p" + LatencyStats.formatPercentile(percentile) + " "
                + cell(s.atPercentile()) + " stddev " + cell(s.stdDeviation()) + " iter " + s.iterations() + "\n");
        out.flush();
    }

    /** @return {@link #writeText(PrintWriter)} as a string with {@code \n} line ends */
    public String text() {
        StringWriter w = new StringWriter();
        writeText(new PrintWriter(w));
        return w.toString();
    }

    private static String rate(OptionalDouble r) {
        return r.isPresent() ? String.format(Locale.ROOT, "%.3f", r.getAsDouble()) : "-";
    }

    private static String cell(OptionalDouble v) {
        return v.isPresent() ? Long.toString(Math.round(v.getAsDouble())) : "-";
    }

    /**
     * @param timeSeconds seconds since the start of the run
     * @return {@code transactions_per_second} (higher is better; one in total, labelled
     *     {@code flow=all}, and one per flow), then {@code latency_p50}, {@code latency_p<percentile>}
     *     and {@code latency_mean} in ns (lower is better); all labelled {@code test}; no rate when
     *     the window has no length and no latency without samples
     */
    public List<Metric> metrics(double timeSeconds) {
        List<Metric> out = new ArrayList<>();
        transactionsPerSecond().ifPresent(v -> out.add(new Metric("transactions_per_second", v, "transactions/s",
                Metric.LOCAL, timeSeconds, labels("flow", "all"), Better.HIGHER)));
        for (int i = 0; i < flowTransactions.size(); i++) {
            OptionalDouble r = flowTransactionsPerSecond(i);
            if (r.isPresent()) {
                out.add(new Metric("transactions_per_second", r.getAsDouble(), "transactions/s", Metric.LOCAL,
                        timeSeconds, labels("flow", Integer.toString(i)), Better.HIGHER));
            }
        }
        LatencyStats s = stats();
        if (s.iterations() > 0) {
            Map<String, String> l = labels("latency", LatencyMode.RTT.key());
            out.add(new Metric("latency_p50", s.median().getAsDouble(), "ns", Metric.LOCAL, timeSeconds, l, Better.LOWER));
            if (percentile != 50) {
                out.add(new Metric("latency_p" + LatencyStats.formatPercentile(percentile),
                        s.atPercentile().getAsDouble(), "ns", Metric.LOCAL, timeSeconds, l, Better.LOWER));
            }
            out.add(new Metric("latency_mean", s.mean().getAsDouble(), "ns", Metric.LOCAL, timeSeconds, l, Better.LOWER));
        }
        return out;
    }

    private Map<String, String> labels(String k, String v) {
        Map<String, String> m = new TreeMap<>();
        m.put("test", test);
        m.put(k, v);
        return m;
    }
}
