package io.linerate.examples.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import picocli.CommandLine;
import picocli.CommandLine.Option;

/** {@code --counters-dir}: where live counters files are written and read; a picocli mixin. */
final class CountersOptions {
    /** The option's name, by which {@link LiveSession} finds it on any command. */
    static final String NAME = "--counters-dir";

    @Option(names = NAME, paramLabel = "DIR",
            description = "Directory of the live counters files (default: the system property linerate.counters.dir, "
                    + "else ${java.io.tmpdir}/linerate-<user>). A missing DIR is created (mode 0700) in its parent, "
                    + "which must exist: a mistyped path does not create a tree of directories.")
    Path directory;

    /**
     * Checks a {@code --counters-dir} before the counters file is made in it: the directory may be
     * missing, and is then created, but its parent must be a directory.
     *
     * @param commandLine the command that took the option, for the error
     * @param dir the value given
     * @throws CommandLine.ParameterException when {@code dir} is a file, or its parent is not a directory
     */
    static void check(CommandLine commandLine, Path dir) {
        Path abs = dir.toAbsolutePath().normalize();
        if (Files.exists(abs) && !Files.isDirectory(abs)) {
            throw new CommandLine.ParameterException(commandLine, NAME + " " + dir + " is not a directory; allowed: "
                    + "a directory, or a new one in a directory that exists");
        }
        Path parent = abs.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            throw new CommandLine.ParameterException(commandLine, NAME + " " + dir + ": its parent " + parent
                    + " is not a directory; allowed: a directory that exists, or a new one in a directory that exists "
                    + "(linerate creates the last level only)");
        }
    }
}
