package io.linerate.examples.cli;

import java.util.Arrays;

/**
 * {@code --verbose}: debug logging and the stack trace of an internal error. The log level must be
 * set before the first logger exists (slf4j-simple reads it once), so the command line is scanned
 * for the switch before anything else runs; {@code simplelogger.properties} makes the default
 * level {@code warn} and sends every log line to stderr.
 */
final class Verbose {
    /** The switch. */
    static final String OPTION = "--verbose";
    /** slf4j-simple's system property for the level of every logger. */
    static final String LEVEL_PROPERTY = "org.slf4j.simpleLogger.defaultLogLevel";

    private Verbose() {}

    /** @return whether {@code args} hold {@value #OPTION} before an end-of-options {@code --} */
    static boolean requested(String... args) {
        return Arrays.stream(args).takeWhile(a -> !a.equals("--")).anyMatch(OPTION::equals);
    }

    /**
     * Scans {@code args} and, when they ask for {@value #OPTION}, sets the level of every logger
     * created from now on to {@code debug}.
     *
     * @return whether {@value #OPTION} was asked for
     */
    static boolean apply(String... args) {
        boolean verbose = requested(args);
        if (verbose) {
            System.setProperty(LEVEL_PROPERTY, "debug");
        }
        return verbose;
    }
}
