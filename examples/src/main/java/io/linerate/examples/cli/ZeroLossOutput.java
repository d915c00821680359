package io.linerate.examples.cli;

import io.linerate.core.MetricSink;
import io.linerate.core.TransferException;
import io.linerate.core.search.SearchFormat;
import io.linerate.core.search.SearchResult;
import io.linerate.suite.LoopbackSuite.Outcome;
import io.linerate.suite.LoopbackSuite;
import io.linerate.suite.LoopbackZeroLoss;
import java.io.PrintWriter;
import java.util.Optional;

/** {@code loopback --zero-loss}: runs {@link LoopbackZeroLoss} after a marker's transfer and writes what it found. */
final class ZeroLossOutput {
    private ZeroLossOutput() {}

    /**
     * Runs the search for a completed marker (none for TCP or an invalid transfer) and writes it:
     * JSON adds {@code zero_loss} (the search's JSON) to the marker's object, which this writes;
     * text and ktap write the found line and notes, and {@code <marker>_ndr_mbps} to the sink
     * (so {@code ZPERF-RESULT <marker>_ndr_mbps=...} and, in ktap, the metric in the marker's test).
     *
     * @param comment the prefix of lines that are not results: {@code "# "} in ktap, empty in text
     * @param t the metric's time, seconds since the suite started
     * @return null when the search found a rate or did not apply; otherwise why the marker fails
     */
    static String emit(LoopbackZeroLoss zero, LoopbackSuite.Config config, Outcome.Completed c, OutputFormat fmt,
                       PrintWriter out, MetricSink sink, String comment, double t) {
        String marker = c.marker().label();
        Optional<SearchResult> found;
        try {
            found = zero.run(config, c);
        } catch (TransferException e) {
            String why = "zero-loss search failed: " + e.getMessage();
            if (fmt == OutputFormat.json) {
                out.println(LoopbackCommand.completedJson(c).put("zero_loss_error", e.getMessage()).toJson());
            } else {
                out.println("# " + marker + " " + why);
            }
            return why;
        }
        if (found.isEmpty()) {
            if (fmt == OutputFormat.json) {
                out.println(LoopbackCommand.completedJson(c).toJson());
            }
            return null;
        }
        SearchResult r = found.get();
        if (fmt == OutputFormat.json) {
            out.println(LoopbackCommand.completedJson(c).put("zero_loss", SearchFormat.json(r, marker)).toJson());
        } else {
            out.println(comment + marker + " zero-loss: " + SearchFormat.foundLine(r) + ", " + r.trials().size() + " trials");
            r.notes().forEach(n -> out.println("# " + marker + " note: " + n));
            SearchFormat.metrics(r, marker, t).forEach(sink::accept);
        }
        return r.confirmed() ? null : "zero-loss search: even the min rate lost";
    }
}
