package io.linerate.core.sink;

import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Collects metrics and writes them on close as a table for people: columns {@code metric},
 * {@code value} (three decimals), {@code unit}, {@code host}, {@code labels}, aligned with spaces.
 */
public final class TableSink implements MetricSink {
    private final PrintWriter out;
    private final List<Metric> rows = new ArrayList<>();
    private boolean closed;

    /** @param out where lines go, as UTF-8; where the table goes */
    public TableSink(PrintStream out) {
        this(new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true));
    }

    /** @param out where the table goes */
    public TableSink(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void accept(Metric metric) {
        rows.add(metric);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        List<String[]> cells = new ArrayList<>();
        cells.add(new String[] {"metric", "value", "unit", "host", "labels"});
        for (Metric m : rows) {
            String labels = m.labels().entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
            cells.add(new String[] {m.name(), String.format(Locale.ROOT, "%.3f", m.value()), m.unit(), m.host(), labels});
        }
        int[] width = new int[5];
        for (String[] r : cells) {
            for (int i = 0; i < r.length; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : cells) {
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < r.length; i++) {
                boolean number = i == 1;
                String pad = " ".repeat(width[i] - r[i].length());
                sb.append(number ? pad + r[i] : r[i] + (i == r.length - 1 ? "" : pad));
                if (i < r.length - 1) {
                    sb.append("  ");
                }
            }
            out.println(sb.toString().stripTrailing());
        }
        out.flush();
    }
}
