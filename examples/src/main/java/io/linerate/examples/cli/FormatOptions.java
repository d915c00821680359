package io.linerate.examples.cli;

/** Resolves {@code --format} against its {@code --ktap} / {@code --json} shorthands. */
final class FormatOptions {
    private FormatOptions() {}

    static OutputFormat resolve(OutputFormat format, boolean ktap, boolean json) {
        if (ktap && json) {
            throw new IllegalArgumentException("--ktap and --json exclude each other; choose one output format");
        }
        if ((ktap || json) && format != OutputFormat.text) {
            throw new IllegalArgumentException("--format " + format + " and --" + (ktap ? "ktap" : "json")
                    + " exclude each other; choose one output format");
        }
        return ktap ? OutputFormat.ktap : json ? OutputFormat.json : format;
    }
}
