package io.linerate.regression;

/**
 * A problem found while reading or judging input, such as a malformed metric line.
 *
 * @param source the input it was found in
 * @param line 1-based line number; 0 when not line-oriented
 * @param name metric name the problem concerns; empty when unknown (then the line is named)
 * @param host host of that metric; empty when unknown
 * @param message what is wrong, naming the value and what is allowed
 * @param series the exact series the problem concerns, when the reader knows it (test path and
 *     labels included); null when only {@code name} and {@code host} are known
 */
public record Problem(String source, int line, String name, String host, String message, SeriesKey series) {

    /** A problem whose exact series is not known: the gate attaches it by name and host. */
    public Problem(String source, int line, String name, String host, String message) {
        this(source, line, name, host, message, null);
    }

    /** A problem of one exact series, attached to that series alone. */
    public static Problem of(String source, int line, SeriesKey series, String message) {
        return new Problem(source, line, series.name(), series.host(), message, series);
    }

    /** @return {@code source:line} or {@code source} */
    public String where() {
        return line > 0 ? source + ":" + line : source;
    }
}
