package io.linerate.regression;

/**
 * Reads one input format into a {@link MetricSet}. Implementations never throw for bad content:
 * each problem becomes an error (with its line number where there is one) in the set.
 */
public interface MetricReader {
    /** @return short name of the format, such as {@code log} or {@code iperf3} */
    String format();

    /**
     * @param content the whole input
     * @return whether this reader understands {@code content}
     */
    boolean accepts(String content);

    /**
     * Reads {@code content} into {@code out}.
     *
     * @param source name of the input, used in messages and as the default run id
     * @param content the whole input
     * @param out where samples, policies and problems go
     */
    void read(String source, String content, MetricSet out);
}
