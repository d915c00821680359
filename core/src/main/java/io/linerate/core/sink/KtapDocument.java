package io.linerate.core.sink;

import io.linerate.core.MetricSink;
import java.io.PrintWriter;
import java.util.Objects;

/**
 * Writes one KTAP version 1 document (the kernel's {@code Documentation/dev-tools/ktap.rst}) with the
 * totals line of the kernel's kselftest harness:
 *
 * <pre>
 * KTAP version 1
 * 1..2
 * # diagnostic lines, ktap metric lines ({@link #metrics()})
 * ok 1 tcp4
 * ok 2 udp4_frag # SKIP loopback MTU 65536 does not fragment 2000-byte datagrams
 * # Totals: pass:1 fail:0 xfail:0 xpass:0 skip:1 error:0
 * </pre>
 *
 * <p>Tests are numbered from 1 in the order their result lines are written. A metric line belongs
 * to the next result line (docs/metrics.md section 2), so write a test's metrics before its
 * result. Line breaks in names, reasons and diagnostics become spaces, so every item stays one
 * line. Lines end in {@code \n}; the writer is flushed after every result line and at the end.
 * Not thread-safe.
 */
public final class KtapDocument {
    /** The first line of every document. */
    public static final String VERSION_LINE = "KTAP version 1";

    private final PrintWriter out;
    private final int planned;
    private final KtapSink metrics;
    private int number;
    private String lastName;
    private int pass;
    private int fail;
    private int xfail;
    private int skip;
    private int error;
    private boolean ended;

    private KtapDocument(PrintWriter out, int planned) {
        this.out = out;
        this.planned = planned;
        this.metrics = new KtapSink(out);
    }

    /**
     * Starts a document: writes the version line and the plan {@code 1..tests}.
     *
     * @param out where the document goes
     * @param tests the number of result lines that will follow, 0 or more
     * @return the document
     * @throws IllegalArgumentException for a negative number of tests
     */
    public static KtapDocument start(PrintWriter out, int tests) {
        Objects.requireNonNull(out, "out");
        if (tests < 0) {
            throw new IllegalArgumentException("plan of " + tests + " tests is out of range; allowed: 0 or more");
        }
        KtapDocument d = new KtapDocument(out, tests);
        d.line(VERSION_LINE);
        d.line("1.." + tests);
        return d;
    }

    /** Writes {@code # text}, a diagnostic line that never changes a result. */
    public void diagnostic(String text) {
        line("# " + oneLine(text));
    }

    /**
     * @return a sink writing ktap metric lines into this document, each name's policy line once per
     *     document; closing it only flushes
     */
    public MetricSink metrics() {
        return metrics;
    }

    /**
     * Writes {@code ok N name}: the test passed.
     *
     * @return the test's number
     */
    public int ok(String name) {
        pass++;
        return result("ok", name, null);
    }

    /**
     * Writes {@code not ok N name}, or {@code not ok N name # reason} when a reason is given: the
     * test ran and failed.
     *
     * @param reason why, such as {@code invalid: no payload byte arrived}; null or empty for none
     * @return the test's number
     */
    public int fail(String name, String reason) {
        fail++;
        return result("not ok", name, reason == null || reason.isEmpty() ? null : reason);
    }

    /**
     * Writes {@code ok N name # SKIP reason}: the test did not run, for that reason.
     *
     * @return the test's number
     */
    public int skip(String name, String reason) {
        skip++;
        return result("ok", name, directive("SKIP", reason));
    }

    /**
     * Writes {@code ok N name # XFAIL reason}: the test failed as expected, which does not fail
     * the document.
     *
     * @return the test's number
     */
    public int xfail(String name, String reason) {
        xfail++;
        return result("ok", name, directive("XFAIL", reason));
    }

    /**
     * Writes {@code not ok N name # error: reason}: the test could not be run or judged.
     *
     * @return the test's number
     */
    public int error(String name, String reason) {
        error++;
        return result("not ok", name, "error: " + reason);
    }

    /** @return the name of the last result written; null before the first */
    public String lastTestName() {
        return lastName;
    }

    /** @return the results written so far */
    public int results() {
        return number;
    }

    /** @return the number of tests of the plan line, {@code 1..N} */
    public int planned() {
        return planned;
    }

    /** @return whether {@link #end()} has written the totals line, after which nothing may follow */
    public boolean ended() {
        return ended;
    }

    /** @return the counts of the result lines written so far */
    public Totals totals() {
        return new Totals(pass, fail, xfail, 0, skip, error);
    }

    /**
     * Ends the document with the totals line ({@link Totals#line()}) and flushes; later calls do
     * nothing. A document may end with fewer results than planned (a run that stopped early); a
     * KTAP harness reports the missing ones.
     */
    public void end() {
        if (!ended) {
            ended = true;
            line(totals().line());
            out.flush();
        }
    }

    private int result(String verdict, String name, String directive) {
        if (ended) {
            throw new IllegalStateException("the KTAP document has ended; no result can follow its totals");
        }
        if (number >= planned) {
            throw new IllegalStateException("result " + (number + 1) + " (" + name + ") is beyond the plan of "
                    + planned + " tests");
        }
        number++;
        lastName = name;
        line(verdict + " " + number + " " + oneLine(name) + (directive == null ? "" : " # " + oneLine(directive)));
        out.flush();
        return number;
    }

    private void line(String s) {
        out.print(s);
        out.print('\n');
    }

    private static String directive(String word, String reason) {
        return reason == null || reason.isEmpty() ? word : word + " " + reason;
    }

    private static String oneLine(String s) {
        return s.replace("\r", " ").replace("\n", " ");
    }

    /**
     * Counts of KTAP results, as kselftest's {@code # Totals:} line prints them.
     *
     * @param pass tests that passed
     * @param fail tests that failed
     * @param xfail tests that failed as expected
     * @param xpass tests expected to fail that passed (linerate writes none)
     * @param skip tests skipped
     * @param error tests that could not be run or judged
     */
    public record Totals(int pass, int fail, int xfail, int xpass, int skip, int error) {
        /** @return {@code # Totals: pass:P fail:F xfail:X xpass:XP skip:S error:E} */
        public String line() {
            return "# Totals: pass:" + pass + " fail:" + fail + " xfail:" + xfail + " xpass:" + xpass + " skip:" + skip
                    + " error:" + error;
        }
    }
}
