package io.linerate.core;

import java.util.List;

/**
 * Receives metrics. Sinks write the formats of DESIGN section 5; see {@code io.linerate.core.sink}.
 * A sink is used from one thread at a time.
 */
public interface MetricSink extends AutoCloseable {

    /** @param metric the observation to write */
    void accept(Metric metric);

    /** Writes what the format puts at the end (a table, {@code ZPERF-DONE}) and flushes. Idempotent. */
    @Override
    default void close() {
    }

    /** @return a sink that hands every metric, and the close, to each of {@code sinks} in order */
    static MetricSink tee(List<? extends MetricSink> sinks) {
        List<MetricSink> all = List.copyOf(sinks);
        return new MetricSink() {
            @Override
            public void accept(Metric metric) {
                for (MetricSink s : all) {
                    s.accept(metric);
                }
            }

            @Override
            public void close() {
                for (MetricSink s : all) {
                    s.close();
                }
            }
        };
    }
}
