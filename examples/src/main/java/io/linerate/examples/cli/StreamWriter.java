package io.linerate.examples.cli;

import io.linerate.core.IntervalListener;
import io.linerate.core.MeasurementResult;
import io.linerate.core.TransferSpec;
import java.io.PrintWriter;

/**
 * What {@code stream} writes in one output format, whatever runs the far end: {@link #start()}
 * before the run, the run's interval samples (it is the run's {@link IntervalListener}, called from
 * any of the run's threads), then {@link #end} with the result. Every format takes any result: the
 * stream's own {@link io.linerate.core.TransferResult}, or a peer's result with both ends' metrics.
 */
interface StreamWriter extends IntervalListener {

    /** Writes what comes before the first interval: a header, or the start of a document. */
    void start();

    /** Writes the result and flushes: a summary, the end of a document, or one JSON object. */
    void end(MeasurementResult result);

    /**
     * @param payloadNote where a stream's payload size came from, for the header of a stream in this JVM
     * @return the writer of {@code fmt}
     */
    static StreamWriter of(OutputFormat fmt, PrintWriter out, TransferSpec spec, String payloadNote) {
        return switch (fmt) {
            case text -> new StreamTextWriter(out, spec, payloadNote);
            case ktap -> new StreamKtapWriter(out, spec, payloadNote);
            case json -> new StreamJsonWriter(out);
        };
    }
}
