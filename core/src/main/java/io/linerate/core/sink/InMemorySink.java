package io.linerate.core.sink;

import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import java.util.ArrayList;
import java.util.List;

/** Keeps every metric in memory, for tests and for callers that judge metrics themselves. */
public final class InMemorySink implements MetricSink {
    private final List<Metric> metrics = new ArrayList<>();
    private boolean closed;

    @Override
    public void accept(Metric metric) {
        metrics.add(metric);
    }

    @Override
    public void close() {
        closed = true;
    }

    /** @return the metrics received so far, in order; an unmodifiable copy */
    public List<Metric> metrics() {
        return List.copyOf(metrics);
    }

    /** @return whether {@link #close()} was called */
    public boolean closed() {
        return closed;
    }
}
