package io.linerate.regression;

/**
 * One sample read from an input.
 *
 * @param key the series it belongs to
 * @param run replicate id; by default the input it was read from
 * @param value a finite number, in {@code unit}
 * @param unit unit of the value; empty when unitless
 * @param timeSeconds seconds since the start of the run (RFC 3339 times are converted to seconds
 *     since the epoch; only differences within one run are used)
 * @param source the input it was read from
 * @param line 1-based line number in {@code source}; 0 when the input is not line-oriented
 */
public record Observation(SeriesKey key, String run, double value, String unit, double timeSeconds,
                          String source, int line) {
}
