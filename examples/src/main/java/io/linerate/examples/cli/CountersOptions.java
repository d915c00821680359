package io.linerate.examples.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/** {@code --counters-dir}: where live counters files are written and read; a picocli mixin. */
final class CountersOptions {
    /** The option's name, by which {@link LiveSession} finds it on any command. */
    static final String NAME = "--counters-dir";

    @Option(names = NAME, paramLabel = "DIR",
            description = "Directory of the live counters files (default: the system property linerate.counters.dir, "
                    + "else ${java.io.tmpdir}/linerate-<user>).")
    Path directory;
}
