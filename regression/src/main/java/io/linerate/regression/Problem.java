package io.linerate.regression;

/**
 * A problem found while reading or judging input, such as a malformed metric line.
 *
 * @param source the input it was found in
 * @param line 1-based line number; 0 when not line-oriented
 * @param name metric name the problem concerns; empty when unknown (then the line is named)
 * @param host host of that metric; empty when unknown
 * @param message what is wrong, naming the value and what is allowed
 */
public record Problem(String source, int line, String name, String host, String message) {
    /** @return {@code source:line} or {@code source} */
    public String where() {
        return line > 0 ? source + ":" + line : source;
    }
}
