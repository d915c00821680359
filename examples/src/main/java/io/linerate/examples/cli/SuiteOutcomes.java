package io.linerate.examples.cli;

import io.linerate.core.Clock;
import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import io.linerate.core.sink.KtapDocument;
import io.linerate.core.sink.TransferFormat;
import io.linerate.suite.LoopbackSuite.Outcome;
import io.linerate.suite.LoopbackSuite;
import io.linerate.suite.LoopbackZeroLoss;
import java.io.PrintWriter;
import java.util.function.Consumer;

/**
 * {@code linerate loopback}'s output of each transfer as the suite finishes it, in the format asked
 * for: a summary line and its metrics (text, KTAP) or a JSON line, the {@code --zero-loss} search
 * of its marker, a KTAP result line (every run of a marker is the same KTAP test, so that its
 * metrics form one series); and the tally of what failed, for the exit code.
 */
final class SuiteOutcomes implements Consumer<Outcome> {
    private final OutputFormat fmt;
    private final PrintWriter out;
    private final PrintWriter err;
    private final MetricSink sink;
    private final KtapDocument doc;
    private final LoopbackZeroLoss zero;
    private final LoopbackSuite.Config config;
    private final Clock clock;
    private final long start;
    private final String comment;
    private boolean failed;
    private boolean usage;

    /**
     * @param doc the KTAP document with a test per marker and run; null unless {@code fmt} is KTAP
     * @param zero the zero-loss search run after each UDP transfer; null without {@code --zero-loss}
     * @param start the suite's start on {@code clock}, ns
     */
    SuiteOutcomes(OutputFormat fmt, PrintWriter out, PrintWriter err, MetricSink sink, KtapDocument doc,
                  LoopbackZeroLoss zero, LoopbackSuite.Config config, Clock clock, long start) {
        this.fmt = fmt;
        this.out = out;
        this.err = err;
        this.sink = sink;
        this.doc = doc;
        this.zero = zero;
        this.config = config;
        this.clock = clock;
        this.start = start;
        this.comment = fmt == OutputFormat.ktap ? "# " : "";
    }

    @Override
    public void accept(Outcome outcome) {
        if (outcome instanceof Outcome.Completed c) {
            completed(c);
        } else if (outcome instanceof Outcome.Skipped s) {
            skipped(s);
        } else if (outcome instanceof Outcome.Failed f) {
            failed(f);
        }
        out.flush();
    }

    /** @return 2 when a transfer failed as bad usage, 1 when one failed or was not valid, else 0 */
    int exitCode() {
        return usage ? Linerate.USAGE : failed ? Linerate.FAILED : Linerate.OK;
    }

    private void completed(Outcome.Completed c) {
        String name = c.marker().label();
        if (fmt == OutputFormat.json && zero == null) {
            out.println(LoopbackCommand.completedJson(c).toJson());
        } else if (fmt != OutputFormat.json) {
            out.println(comment + TransferFormat.summaryLine(c.marker().label(), c.result())
                    + (c.fragmentsCreated().isPresent() ? "  fragments " + c.fragmentsCreated().getAsLong() : "")
                    + (c.result().valid() && !c.valid() ? "  INVALID: " + String.join("; ", c.invalidReasons()) : ""));
            // a *_frag transfer that did not fragment as it must measured something else: no figure
            if (!(c.result().valid() && !c.valid())) {
                for (Metric m : c.result().metrics(c.marker().label())) {
                    sink.accept(m);
                }
            }
        }
        if (!c.valid()) {
            failed = true;
        }
        String zeroLossFailure = zero == null ? null : ZeroLossOutput.emit(zero, config, c, fmt, out, sink, comment,
                (clock.nanoTime() - start) / 1e9);
        if (zeroLossFailure != null) {
            failed = true;
        }
        if (doc != null && c.valid() && zeroLossFailure != null) {
            doc.fail(name, zeroLossFailure);
        } else if (doc != null && c.valid()) {
            doc.ok(name);
        } else if (doc != null) {
            doc.fail(name, "invalid: " + String.join("; ", c.invalidReasons()));
        }
    }

    private void skipped(Outcome.Skipped s) {
        if (fmt == OutputFormat.json) {
            out.println(LoopbackCommand.header(s).put("skipped", true).put("reason", s.reason()).toJson());
        } else if (fmt == OutputFormat.text) {
            out.println("# " + s.marker().label() + " skipped: " + s.reason());
        }
        if (doc != null) {
            doc.skip(s.marker().label(), s.reason());
        }
    }

    private void failed(Outcome.Failed f) {
        failed = true;
        usage |= f.usageError();
        if (fmt == OutputFormat.json) {
            out.println(LoopbackCommand.header(f).put("error", f.error()).toJson());
        } else {
            out.println("# " + f.marker().label() + " failed: " + f.error());
        }
        if (doc != null) {
            doc.error(f.marker().label(), f.error());
        }
        err.println("linerate: " + f.marker().label() + ": " + f.error());
    }
}
