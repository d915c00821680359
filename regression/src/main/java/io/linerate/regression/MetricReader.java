package io.linerate.regression;

/**
 * Reads one input format into a {@link MetricSet}. Implementations never throw for bad content:
 * each problem becomes an error (with its line number where there is one) in the set. Like the
 * built-in readers, an implementation drops a leading UTF-8 byte-order mark (U+FEFF), refuses a
 * key it reads that is given twice in one JSON object with different values, and refuses a value
 * its unit forbids (NaN, an infinity, a negative rate, size, count, duration or percentage), naming
 * the line or the element's JSON path; {@link MetricSet#add} turns a refused value that gets past
 * it into an error.
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
