package io.linerate.examples.cli;

import java.util.Arrays;

/**
 * {@code --verbose}: debug logging and the stack trace of an internal error. The log level must be
 * set before the first logger exists (slf4j-simple reads it once), so the command line is scanned
 * for the switch before anything else runs; {@code simplelogger.properties} makes the default
 * level {@code warn} and sends every log line to stderr. Under {@code serve} the servers' own
 * loggers log at {@code info}: a line per session or test, never per packet; under
 * {@code serve --quiet} at {@code warn}.
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
        } else if (serving(args) && !quiet(args) && System.getProperty(SERVE_LEVEL_PROPERTY) == null) {
            // a server's log is its record of the tests it ran, as iperf3 -s prints each: one line a session;
            // serve --quiet leaves only warnings and errors
            System.setProperty(SERVE_LEVEL_PROPERTY, "info");
        }
        return verbose;
    }

    /** slf4j-simple's system property for the level of the servers' loggers (agent, iperf3, iperf 2). */
    static final String SERVE_LEVEL_PROPERTY = "org.slf4j.simpleLogger.log.io.linerate.nio";

    /** @return whether {@code args} hold {@code -q} or {@code --quiet} before an end-of-options {@code --} */
    static boolean quiet(String... args) {
        return Arrays.stream(args).takeWhile(a -> !a.equals("--")).anyMatch(a -> a.equals("-q") || a.equals("--quiet"));
    }

    /** @return whether the command is {@code serve}: the first argument that is not an option */
    static boolean serving(String... args) {
        return Arrays.stream(args).filter(a -> !a.startsWith("-")).findFirst().filter("serve"::equals).isPresent();
    }
}
