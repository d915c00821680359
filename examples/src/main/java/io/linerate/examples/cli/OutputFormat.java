package io.linerate.examples.cli;

/** How a command prints its results. */
enum OutputFormat {
    /** Interval and summary lines for people, a metric table, zperf result lines. */
    text,
    /** zperf result lines and ktap metric and policy lines, inside a KTAP document. */
    ktap,
    /** JSON Lines: one JSON object per transfer. */
    json
}
