package io.linerate.regression;

import java.util.List;
import java.util.Optional;

/**
 * A KTAP test that reported {@code # SKIP} (such as {@code ok 1 udp4_frag # SKIP no fragmentation
 * on this host}). Its baselined metrics become {@code skip} verdicts carrying the reason instead of
 * {@code missing} ones.
 *
 * @param test the test path: the names of the enclosing KTAP tests and its own, joined with {@code /}
 * @param reason the text after {@code SKIP}; empty when none was given
 * @param source the input it was read from
 * @param line 1-based line number of the result line
 */
public record SkippedTest(String test, String reason, String source, int line) {
    /**
     * The skipped test a baselined series that is absent now belongs to: the test whose path is the
     * series' test path or one of its parents ({@code port_b} owns {@code port_b/throughput}); for
     * a series without a test path (read from {@code ZPERF-RESULT} lines, for example), the test
     * whose own name is the metric's name or its start before a {@code _}, as zperf names metrics
     * {@code <marker>_mbps} ({@code udp4_frag} owns {@code udp4_frag_mbps}). The most specific,
     * longest, match wins.
     *
     * @param key the series
     * @param skipped the skipped tests of the current input
     * @return the owning test, or empty
     */
    public static Optional<SkippedTest> owning(SeriesKey key, List<SkippedTest> skipped) {
        SkippedTest best = null;
        int bestLength = -1;
        for (SkippedTest t : skipped) {
            boolean in;
            int length;
            if (!key.test().isEmpty()) {
                in = key.test().equals(t.test()) || key.test().startsWith(t.test() + "/");
                length = t.test().length();
            } else {
                in = !t.leaf().isEmpty() && (key.name().equals(t.leaf()) || key.name().startsWith(t.leaf() + "_"));
                length = t.leaf().length();
            }
            if (in && length > bestLength) {
                best = t;
                bestLength = length;
            }
        }
        return Optional.ofNullable(best);
    }

    /** @return the test's own name, the last element of its path */
    public String leaf() {
        return test.substring(test.lastIndexOf('/') + 1);
    }
}
