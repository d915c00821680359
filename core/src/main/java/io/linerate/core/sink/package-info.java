/**
 * Metric sinks and result formats: zperf's {@code ZPERF-RESULT} lines, ktap metric and policy lines,
 * a table, JSON lines and an in-memory sink for tests; iperf-style interval lines and the JSON summary
 * of a transfer. Every number is written with {@link java.util.Locale#ROOT}.
 */
package io.linerate.core.sink;
