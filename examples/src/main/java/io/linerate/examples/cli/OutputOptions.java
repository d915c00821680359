package io.linerate.examples.cli;

import picocli.CommandLine.Option;

/** {@code --format} and its shorthands {@code --ktap} and {@code --json}; a picocli mixin. */
final class OutputOptions {
    @Option(names = "--format", description = "Output: ${COMPLETION-CANDIDATES} (default: text).")
    OutputFormat format;

    @Option(names = "--ktap", description = "Same as --format ktap.")
    boolean ktap;

    @Option(names = "--json", description = "Same as --format json.")
    boolean json;

    /**
     * @return the output format asked for
     * @throws IllegalArgumentException when two of the options ask for different formats
     */
    OutputFormat format() {
        if (ktap && json) {
            throw new IllegalArgumentException("--ktap and --json exclude each other; choose one output format");
        }
        if ((ktap || json) && format != null) {
            throw new IllegalArgumentException("--format " + format + " and --" + (ktap ? "ktap" : "json")
                    + " exclude each other; choose one output format");
        }
        return ktap ? OutputFormat.ktap : json ? OutputFormat.json : format != null ? format : OutputFormat.text;
    }
}
