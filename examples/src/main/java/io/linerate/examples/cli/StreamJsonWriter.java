package io.linerate.examples.cli;

import io.linerate.core.IntervalSample;
import io.linerate.core.MeasurementResult;
import io.linerate.core.sink.ResultJson;
import java.io.PrintWriter;

/** {@code stream --json}: one line, the result's JSON ({@link ResultJson#of}); no intervals. */
final class StreamJsonWriter implements StreamWriter {
    private final PrintWriter out;

    StreamJsonWriter(PrintWriter out) {
        this.out = out;
    }

    @Override
    public void start() {
        // one object at the end: nothing before it
    }

    @Override
    public void onInterval(IntervalSample sample) {
        // the result carries the totals
    }

    @Override
    public void end(MeasurementResult result) {
        RunWriter.printJson(out, ResultJson.of(result));
        out.flush();
    }
}
