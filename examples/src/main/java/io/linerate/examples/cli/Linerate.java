package io.linerate.examples.cli;

import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code linerate} command line. Exit codes: 0 done, 1 a transfer failed or a result is
 * invalid, 2 bad usage (with a message naming the value and the allowed range, no stack trace);
 * {@link ExitCodes} maps what a command throws to them. {@code --verbose} turns on debug logging
 * (slf4j-simple, on stderr) and the stack trace of an internal error.
 */
@Command(name = "linerate", mixinStandardHelpOptions = true, versionProvider = Linerate.Version.class,
        description = "Measures network throughput and latency honestly, and gates regressions on them.",
        subcommands = {LoopbackCommand.class, StreamCommand.class, PingPongCommand.class, RrCommand.class,
            RawCommand.class, SearchCommand.class, ServeCommand.class, GateCommand.class, PlotCommand.class,
            TransportsCommand.class, StatCommand.class,
            CommandLine.HelpCommand.class})
public final class Linerate {
    /** Exit code when everything ran and every result is valid. */
    public static final int OK = 0;
    /** Exit code when a transfer failed or a result is invalid. */
    public static final int FAILED = 1;
    /** Exit code for bad usage. */
    public static final int USAGE = 2;
    /** Exit code of a run stopped by SIGINT (Ctrl-C), 128 + 2 as shells report it; its partial result was printed. */
    public static final int INTERRUPTED = 130;

    @Option(names = Verbose.OPTION, scope = ScopeType.INHERIT,
            description = "Log setup, teardown and fallbacks (debug level) on stderr, and show the stack trace of an "
                    + "internal error.")
    boolean verbose;

    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs the command line with the given output streams; for tests and embedding.
     *
     * @return the exit code
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        boolean verbose = Verbose.apply(args);
        CommandLine cl = configure(new CommandLine(new Linerate()), verbose);
        cl.setOut(out);
        cl.setErr(err);
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * Runs one command on its own, as its {@code main} does, with the converters, exit codes and
     * {@code --verbose} it has under {@code linerate}.
     *
     * @param command the command object, such as {@code new RawCommand()}
     * @param args its options
     * @return the exit code
     */
    static int runAlone(Object command, String... args) {
        boolean verbose = Verbose.apply(args);
        return configure(new CommandLine(command), verbose).execute(args);
    }

    /** @return {@code command} ready to run as under {@code linerate}, without {@code --verbose}; for tests */
    static CommandLine commandLine(Object command) {
        return configure(new CommandLine(command), false);
    }

    /**
     * Gives {@code cl} and every subcommand it has now linerate's converters (every whole number,
     * with messages that name the value), its exit codes ({@link ExitCodes}) and its execution
     * strategy ({@link LiveSession}); a root without {@value Verbose#OPTION} gets the switch.
     *
     * @param verbose whether an internal error shows its stack trace
     * @return {@code cl}
     */
    static CommandLine configure(CommandLine cl, boolean verbose) {
        if (cl.getCommandSpec().findOption(Verbose.OPTION) == null) {
            cl.getCommandSpec().addOption(OptionSpec.builder(Verbose.OPTION).type(boolean.class)
                    .description("Log setup, teardown and fallbacks (debug level) on stderr, and show the stack trace "
                            + "of an internal error.").build());
        }
        cl.registerConverter(Integer.class, new Converters.IntConverter());
        cl.registerConverter(Integer.TYPE, new Converters.IntConverter());
        cl.registerConverter(Long.class, new Converters.LongConverter());
        cl.registerConverter(Long.TYPE, new Converters.LongConverter());
        cl.setExecutionStrategy(new LiveSession());
        ExitCodes codes = new ExitCodes(verbose);
        cl.setExecutionExceptionHandler(codes);
        cl.setParameterExceptionHandler(codes);
        return cl;
    }

    /**
     * Prints the version and the commit it was built from, as the jar manifest records them
     * ({@link BuildInfo}), such as {@code linerate 0.1.0 (commit 1a2b3c4, 2026-12-01)}.
     */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {BuildInfo.current().versionLine()};
        }
    }

    /** @return this build's version, or {@code dev} when not run from a jar */
    static String version() {
        String v = Linerate.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
