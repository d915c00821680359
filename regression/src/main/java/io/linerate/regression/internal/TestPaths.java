package io.linerate.regression.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * Gives each item of a KTAP log (a metric line, a skipped test) its test path: the names of the
 * enclosing KTAP tests joined with {@code /} (docs/metrics.md section 2).
 *
 * <p>KTAP names a test on its result line, after the test's own lines, and a subtest's lines are
 * nested one level deeper than its parent's result line. So an item at depth {@code d} waits for
 * the next result line at depth {@code d}, which names it; a result line at depth {@code d} also
 * names everything nested deeper since the previous result line at depth {@code d} (its subtests'
 * items, which their own result lines already named), by putting its name in front. For example
 * <pre>
 *     # ktap-metric-json: {"name":"rx_mbps",...}     depth 1
 *     ok 1 throughput                                depth 1: rx_mbps is in throughput
 * ok 1 port_a                                        depth 0: rx_mbps is in port_a/throughput
 * </pre>
 * An item whose own test is known (a metric with {@code "test"}, a result line) starts named at
 * its depth. Items no result line names keep the names they have (none: the empty path).
 */
final class TestPaths {
    private final List<String> paths = new ArrayList<>();
    private final List<List<Integer>> waiting = new ArrayList<>();
    private final List<List<Integer>> named = new ArrayList<>();

    /**
     * @param depth nesting depth of the item's line, 0 for the top level
     * @param test the item's own test name when known, else null
     * @return the item's id
     */
    int add(int depth, String test) {
        int id = paths.size();
        paths.add(test == null ? "" : test);
        level(test == null ? waiting : named, depth).add(id);
        return id;
    }

    /** A result line at {@code depth} naming test {@code name} (empty: a result without a name). */
    void result(int depth, String name) {
        List<Integer> taken = new ArrayList<>(level(waiting, depth));
        level(waiting, depth).clear();
        for (int d = depth + 1; d < Math.max(waiting.size(), named.size()); d++) {
            taken.addAll(level(waiting, d));
            taken.addAll(level(named, d));
            level(waiting, d).clear();
            level(named, d).clear();
        }
        if (!name.isEmpty()) {
            for (int id : taken) {
                String p = paths.get(id);
                paths.set(id, p.isEmpty() ? name : name + "/" + p);
            }
        }
        level(named, depth).addAll(taken);
    }

    /** @return the test path of item {@code id} as far as it is known */
    String path(int id) {
        return paths.get(id);
    }

    private static List<Integer> level(List<List<Integer>> levels, int depth) {
        while (levels.size() <= depth) {
            levels.add(new ArrayList<>());
        }
        return levels.get(depth);
    }

    /**
     * The nesting depth of a line from its prefix: one level per {@code #} (or {@code #:}), as the
     * kselftest runner prefixes a nested test's output with {@code "# "}, plus one per four spaces
     * or per tab of indentation, as KTAP indents subtests. The single space after a {@code #} is
     * its separator, not indentation. A diagnostic line (a metric or policy line) carries one
     * {@code #} of its own, which is not nesting.
     *
     * @param line the line
     * @param end index where the prefix ends
     * @param diagnostic whether the line is a diagnostic whose own {@code #} is not counted
     * @return the depth, at least 0
     */
    static int depth(String line, int end, boolean diagnostic) {
        int hashes = 0;
        int spaces = 0;
        int tabs = 0;
        int i = 0;
        while (i < end) {
            char c = line.charAt(i++);
            if (c == '#') {
                hashes++;
                if (i < end && line.charAt(i) == ':') {
                    i++;
                }
                if (i < end && line.charAt(i) == ' ') {
                    i++;
                }
            } else if (c == ' ') {
                spaces++;
            } else if (c == '\t') {
                tabs++;
            } else {
                break;
            }
        }
        if (diagnostic && hashes > 0) {
            hashes--;
        }
        return hashes + spaces / 4 + tabs;
    }
}
