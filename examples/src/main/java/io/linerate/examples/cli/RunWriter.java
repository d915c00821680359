package io.linerate.examples.cli;

import io.linerate.core.sink.JsonObject;
import io.linerate.core.sink.KtapDocument;
import java.io.PrintWriter;

/**
 * The output of one run of {@link Repeats}: writes through to the command's output, and knows the
 * run's index and the KTAP document all runs share, so that a command's writers keep taking a
 * {@link PrintWriter}. Given a plain writer, the static methods write a single run's output as
 * before.
 */
final class RunWriter extends PrintWriter {
    private final Repeats runs;
    private final int index;

    RunWriter(PrintWriter out, Repeats runs, int index) {
        super(out);
        this.runs = runs;
        this.index = index;
    }

    /**
     * @param out a command's output
     * @return the KTAP document the run writes its test into: the one of every run of a
     *     {@link RunWriter}, else a new document of one test
     */
    static KtapDocument ktap(PrintWriter out) {
        return out instanceof RunWriter w ? w.runs.ktap() : KtapDocument.start(out, 1);
    }

    /**
     * Writes {@code result} as one JSON line, with the field {@code run} (the run's index from 1)
     * when it is one of several runs.
     *
     * @param out a command's output
     * @param result the object to write; {@code run} is added to it
     */
    static void printJson(PrintWriter out, JsonObject result) {
        if (out instanceof RunWriter w && w.runs.count() > 1) {
            result.put("run", w.index);
        }
        out.println(result.toJson());
    }
}
