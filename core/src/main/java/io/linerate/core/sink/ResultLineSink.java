package io.linerate.core.sink;

import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Writes zperf's result lines: {@code ZPERF-RESULT <name>=<value>} with three decimals for every
 * metric whose unit is {@code Mbit/s} (the zperf markers, such as {@code udp4_mbps}), and
 * {@code ZPERF-DONE} once on close. Other metrics are not written.
 */
public final class ResultLineSink implements MetricSink {
    /** The unit of the metrics this sink writes. */
    public static final String UNIT = "Mbit/s";
    private final PrintWriter out;
    private boolean closed;

    /** @param out where lines go, as UTF-8; where lines go */
    public ResultLineSink(PrintStream out) {
        this(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    }

    /** @param out where lines go */
    public ResultLineSink(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void accept(Metric metric) {
        if (UNIT.equals(metric.unit())) {
            out.println(String.format(Locale.ROOT, "ZPERF-RESULT %s=%.3f", metric.name(), metric.value()));
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            out.println("ZPERF-DONE");
            out.flush();
        }
    }
}
