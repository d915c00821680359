package io.linerate.examples.cli;

import io.linerate.core.Failures;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * The one mapping from what a command throws to its message on stderr and its exit code, for
 * every command, under {@code linerate} or run alone:
 *
 * <ul>
 *   <li>{@link IllegalArgumentException}: bad usage, {@value Linerate#USAGE}, with its message,
 *       which names the value and the allowed range;</li>
 *   <li>{@link TransferException}: {@value Linerate#USAGE} when it is a usage error (a port in use,
 *       a remote endpoint), otherwise {@value Linerate#FAILED}, with its message;</li>
 *   <li>{@link IOException}: {@value Linerate#FAILED} with its message; for a command whose every
 *       file is one the user named ({@link UserFiles}: {@code gate}, {@code plot}) a file that
 *       cannot be read or written is bad usage, {@value Linerate#USAGE};</li>
 *   <li>anything else is a bug: {@value Linerate#FAILED} with the exception, and its stack trace
 *       under {@code --verbose}.</li>
 * </ul>
 *
 * Messages start with {@code linerate: }, or with the command's name for {@link UserFiles}
 * commands ({@code gate: }); none shows a stack trace unless asked. A command line picocli cannot
 * parse (an unknown option, a value it cannot convert, a missing one) is bad usage too,
 * {@value Linerate#USAGE}: one such line, picocli's suggestions for a mistyped option, and where
 * the options are listed, never the whole usage.
 */
final class ExitCodes implements CommandLine.IExecutionExceptionHandler, CommandLine.IParameterExceptionHandler {
    /**
     * A command whose every file is one the user named on its command line, so that a file it
     * cannot read or write is bad usage, and whose messages start with its own name.
     */
    interface UserFiles {}

    private final boolean verbose;

    /** @param verbose whether an internal error shows its stack trace */
    ExitCodes(boolean verbose) {
        this.verbose = verbose;
    }

    @Override
    public int handleParseException(CommandLine.ParameterException ex, String[] args) {
        CommandLine cl = ex.getCommandLine();
        PrintWriter err = cl.getErr();
        String prefix = cl.getCommand() instanceof UserFiles ? cl.getCommandName() + ": " : "linerate: ";
        err.println(prefix + asTyped(withRange(ex), ex, args));
        CommandLine.UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + cl.getCommandSpec().qualifiedName() + " --help' for its options.");
        err.flush();
        return Linerate.USAGE;
    }

    private static final Pattern RANGE = Pattern.compile("-?\\d+\\.\\.-?\\d+");

    /**
     * picocli names an option by its longest name; where the command line gave it by another one,
     * such as {@code -b} for {@code --bitrate, --bandwidth}, the message names it as given.
     *
     * @param message the message, naming the option as {@code '<longest name>'}
     * @param args the command line
     * @return the message, naming the option as the first argument that gives it does
     */
    static String asTyped(String message, CommandLine.ParameterException ex, String[] args) {
        if (!(ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o) || !message.contains("'" + o.longestName() + "'")) {
            return message;
        }
        for (String arg : args) {
            for (String name : o.names()) {
                boolean attachedShort = name.length() == 2 && !arg.startsWith("--") && arg.startsWith(name);
                if (arg.equals(name) || arg.startsWith(name + "=") || attachedShort) {
                    return message.replace("'" + o.longestName() + "'", "'" + name + "'");
                }
            }
        }
        return message;
    }

    /**
     * A whole number that does not parse gets the range its option's description states (such as
     * {@code 1..128}) instead of a pointer to --help, where the description has one.
     */
    static String withRange(CommandLine.ParameterException ex) {
        String m = ex.getMessage();
        if (!(ex.getArgSpec() instanceof CommandLine.Model.OptionSpec o)
                || !(m.endsWith("; its allowed range is in --help") || m.endsWith("within the option's range (see --help)"))) {
            return m;
        }
        Matcher r = RANGE.matcher(String.join(" ", o.description()));
        if (!r.find()) {
            return m;
        }
        return m.replace("; its allowed range is in --help", "; allowed: " + r.group())
                .replace("within the option's range (see --help)", r.group());
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine commandLine, ParseResult parseResult) {
        PrintWriter err = commandLine.getErr();
        boolean userFiles = commandLine.getCommand() instanceof UserFiles;
        String prefix = userFiles ? commandLine.getCommandName() + ": " : "linerate: ";
        int code;
        if (ex instanceof IllegalArgumentException) {
            err.println(prefix + ex.getMessage());
            code = Linerate.USAGE;
        } else if (ex instanceof TransferException te) {
            err.println(prefix + te.getMessage());
            code = te.isUsageError() ? Linerate.USAGE : Linerate.FAILED;
        } else if (ex instanceof IOException io) {
            String message = Failures.describe(io);
            err.println(prefix + (userFiles ? "cannot read or write a file: " : "") + message);
            code = userFiles ? Linerate.USAGE : Linerate.FAILED;
        } else {
            err.println(prefix + "internal error: " + ex + (verbose ? "" : " (--verbose shows where)"));
            if (verbose) {
                ex.printStackTrace(err);
            }
            code = Linerate.FAILED;
        }
        err.flush();
        return code;
    }
}
