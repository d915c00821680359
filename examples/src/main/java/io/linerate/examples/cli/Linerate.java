package io.linerate.examples.cli;

import io.linerate.core.TransferException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code linerate} command line. Exit codes: 0 done, 1 a transfer failed or a result is
 * invalid, 2 bad usage (with a message naming the value and the allowed range, no stack trace).
 */
@Command(name = "linerate", mixinStandardHelpOptions = true, versionProvider = Linerate.Version.class,
        description = "Measures network throughput and latency honestly, and gates regressions on them.",
        subcommands = {LoopbackCommand.class, StreamCommand.class, PingPongCommand.class, RrCommand.class,
            RawCommand.class, GateCommand.class, PlotCommand.class, TransportsCommand.class, StatCommand.class,
            CommandLine.HelpCommand.class})
public final class Linerate {
    /** Exit code when everything ran and every result is valid. */
    public static final int OK = 0;
    /** Exit code when a transfer failed or a result is invalid. */
    public static final int FAILED = 1;
    /** Exit code for bad usage. */
    public static final int USAGE = 2;

    public static void main(String[] args) {
        System.exit(execute(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /**
     * Runs the command line with the given output streams; for tests and embedding.
     *
     * @return the exit code
     */
    public static int execute(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cl = new CommandLine(new Linerate());
        cl.registerConverter(Integer.class, new Converters.IntConverter());
        cl.registerConverter(Integer.TYPE, new Converters.IntConverter());
        cl.registerConverter(Long.class, new Converters.LongConverter());
        cl.registerConverter(Long.TYPE, new Converters.LongConverter());
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionStrategy(new LiveSession());
        cl.setExecutionExceptionHandler((ex, commandLine, parseResult) -> {
            if (ex instanceof IllegalArgumentException) {
                commandLine.getErr().println("linerate: " + ex.getMessage());
                return USAGE;
            }
            if (ex instanceof TransferException te) {
                commandLine.getErr().println("linerate: " + te.getMessage());
                return te.isUsageError() ? USAGE : FAILED;
            }
            commandLine.getErr().println("linerate: internal error: " + ex);
            ex.printStackTrace(commandLine.getErr());
            return FAILED;
        });
        int code = cl.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /** Prints the version from the jar manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"linerate " + version()};
        }
    }

    /** @return this build's version, or {@code dev} when not run from a jar */
    static String version() {
        String v = Linerate.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
