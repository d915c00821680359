package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.TransferException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.NoSuchFileException;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The one mapping from what a command throws to its message and exit code (docs/throughput.md: exit codes). */
class ExitCodesTest {
    record Run(int exit, String err) {}

    @Command(name = "thrower")
    static class Thrower implements Callable<Integer> {
        final Exception toThrow;

        Thrower(Exception toThrow) {
            this.toThrow = toThrow;
        }

        @Override
        public Integer call() throws Exception {
            throw toThrow;
        }
    }

    /** A command like gate: every file it touches is one the user named. */
    @Command(name = "gate")
    static final class FileThrower extends Thrower implements ExitCodes.UserFiles {
        FileThrower(Exception toThrow) {
            super(toThrow);
        }
    }

    private static Run run(Thrower command, boolean verbose, String... args) {
        StringWriter err = new StringWriter();
        CommandLine cl = Linerate.configure(new CommandLine(command), verbose);
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        return new Run(cl.execute(args), err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void badUsageIsTwoWithItsMessage() {
        assertThat(run(new Thrower(new IllegalArgumentException("rate '5X' has unknown suffix 'X'")), false))
                .isEqualTo(new Run(2, "linerate: rate '5X' has unknown suffix 'X'\n"));
    }

    @Test
    void aTransferExceptionIsTwoWhenItIsAUsageErrorAndOneOtherwise() {
        assertThat(run(new Thrower(new TransferException("TCP port 5201 on 127.0.0.1 is already in use", null, true)), false))
                .isEqualTo(new Run(2, "linerate: TCP port 5201 on 127.0.0.1 is already in use\n"));
        assertThat(run(new Thrower(new TransferException("no response within 2000 ms", null)), false))
                .isEqualTo(new Run(1, "linerate: no response within 2000 ms\n"));
    }

    @Test
    void anIoErrorIsOneButBadUsageForACommandOfUserNamedFiles() {
        assertThat(run(new Thrower(new IOException("cannot write the raw samples under /x: disk full")), false))
                .isEqualTo(new Run(1, "linerate: cannot write the raw samples under /x: disk full\n"));
        assertThat(run(new FileThrower(new NoSuchFileException("/tmp/base.json")), false))
                .isEqualTo(new Run(2, "gate: cannot read or write a file: /tmp/base.json: no such file or directory\n"));
        assertThat(run(new FileThrower(new IllegalArgumentException("--tolerance -5 is not allowed")), false))
                .isEqualTo(new Run(2, "gate: --tolerance -5 is not allowed\n"));
    }

    @Test
    void anythingElseIsABugWhoseStackTraceOnlyVerboseShows() {
        Run quiet = run(new Thrower(new IllegalStateException("boom")), false);
        assertThat(quiet).isEqualTo(new Run(1, "linerate: internal error: java.lang.IllegalStateException: boom "
                + "(--verbose shows where)\n"));
        Run verbose = run(new Thrower(new IllegalStateException("boom")), true, "--verbose");
        assertThat(verbose.exit()).isEqualTo(1);
        assertThat(verbose.err()).startsWith("linerate: internal error: java.lang.IllegalStateException: boom\n"
                + "java.lang.IllegalStateException: boom\n").contains("\tat " + ExitCodesTest.class.getName());
    }

    @Test
    void aCommandRunAloneAcceptsVerbose() {
        // the switch is added where the command lacks it, as RawCommand.main and the others run alone
        assertThat(run(new Thrower(new IllegalArgumentException("x")), false, "--verbose").exit()).isEqualTo(2);
        assertThat(Verbose.requested("--tx", "a0", "--verbose")).isTrue();
        assertThat(Verbose.requested("--tx", "a0", "--", "--verbose")).isFalse();
    }

    @Test
    void serveIsTheCommandWhoseServersLogEachTest() {
        assertThat(Verbose.serving("serve", "--iperf3")).isTrue();
        assertThat(Verbose.serving("--verbose", "serve")).isTrue();
        assertThat(Verbose.serving("stream", "--peer", "127.0.0.1:7001")).isFalse();
        assertThat(Verbose.serving("stream", "serve")).isFalse();
        assertThat(Verbose.serving()).isFalse();
    }
}
