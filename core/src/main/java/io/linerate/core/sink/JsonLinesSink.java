package io.linerate.core.sink;

import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/** Writes each metric as one JSON object per line (JSON Lines), the same object a ktap line carries. */
public final class JsonLinesSink implements MetricSink {
    private final PrintWriter out;

    /** @param out where lines go, as UTF-8; where lines go; flushed on close */
    public JsonLinesSink(PrintStream out) {
        this(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    }

    /** @param out where lines go; flushed on close */
    public JsonLinesSink(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void accept(Metric metric) {
        out.println(MetricJson.metric(metric));
    }

    @Override
    public void close() {
        out.flush();
    }
}
