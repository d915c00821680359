package io.linerate.examples.cli;

import io.linerate.core.sink.KtapDocument;
import java.io.PrintWriter;
import picocli.CommandLine.Model.CommandSpec;

/**
 * Runs a measuring command's body {@code --repeat N} times as one output, with Ctrl-C handled
 * ({@link SigintStop}): text puts each run under a {@code # run i/N} line (with N above 1), KTAP
 * makes each run a test of its own in one document of N tests (as {@code loopback --repeat} does),
 * and JSON writes one line per run, with its {@code run} index from 1 when N is above 1
 * ({@link RunWriter#printJson}).
 *
 * <p>SIGINT stops the run under way within its I/O timeout; the body prints what it measured,
 * marked interrupted ({@code "interrupted": true}, {@code not ok N test # interrupted}), no further
 * run starts, text ends with a line saying so, and the exit code is 130. Otherwise the exit code is
 * the worst of the runs': 0 only when every run is valid.
 */
final class Repeats {
    /** One run of a command: writes its output to {@code out} and returns its exit code. */
    @FunctionalInterface
    interface Body {
        /**
         * @param out the command's output for this run, a {@link RunWriter}
         * @return the run's exit code
         * @throws Exception what the command throws, mapped to an exit code by {@link ExitCodes}
         */
        int run(PrintWriter out) throws Exception;
    }

    private final PrintWriter out;
    private final OutputFormat format;
    private final int count;
    private KtapDocument ktap;

    private Repeats(PrintWriter out, OutputFormat format, int count) {
        this.out = out;
        this.format = format;
        this.count = count;
    }

    /**
     * @param command the command, whose output and error writers are used
     * @param format the output format asked for
     * @param count runs, 1..1000 ({@link RepeatOption#runs()})
     * @param body one run
     * @return the exit code: 130 after SIGINT, else the worst of the runs'
     * @throws Exception what a run throws, unless SIGINT came first
     */
    static int run(CommandSpec command, OutputFormat format, int count, Body body) throws Exception {
        return new Repeats(command.commandLine().getOut(), format, count).runAll(body, command.commandLine().getErr());
    }

    private int runAll(Body body, PrintWriter err) throws Exception {
        int code = Linerate.OK;
        try (SigintStop sigint = SigintStop.install()) {
            try {
                for (int i = 1; i <= count && !sigint.received(); i++) {
                    if (format == OutputFormat.text && count > 1) {
                        out.println("# run " + i + "/" + count);
                    }
                    code = Math.max(code, body.run(new RunWriter(out, this, i)));
                }
            } catch (Exception e) {
                if (!sigint.received()) {
                    end();
                    throw e;
                }
                // stopped while no measurement was under way (setting up, tearing down): nothing to print
                err.println("linerate: interrupted (SIGINT) with no result: " + e.getMessage());
                err.flush();
            }
            if (sigint.received()) {
                String note = "interrupted (SIGINT): no run starts after it, and a run it stopped reports only what "
                        + "it measured until then";
                if (format == OutputFormat.text) {
                    out.println("# " + note);
                } else if (ktap != null && !ktap.ended()) {
                    ktap.diagnostic(note);
                    // every planned test gets its result line: the runs that never started are skipped
                    String name = ktap.lastTestName();
                    while (name != null && ktap.results() < ktap.planned()) {
                        ktap.skip(name, "interrupted (SIGINT) before this run started");
                    }
                }
                code = Linerate.INTERRUPTED;
            }
            end();
        }
        return code;
    }

    /** Ends the KTAP document of the runs, if one was started, and flushes the output. */
    private void end() {
        if (ktap != null) {
            ktap.end();
        }
        out.flush();
    }

    /** @return the one KTAP document of every run, started with its plan of {@code count} tests at first use */
    KtapDocument ktap() {
        if (ktap == null) {
            ktap = KtapDocument.start(out, count);
        }
        return ktap;
    }

    /** @return the runs asked for */
    int count() {
        return count;
    }
}
