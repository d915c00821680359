package io.linerate.examples.cli;

import io.linerate.core.DataPath;
import io.linerate.core.TransferResult;
import java.io.PrintWriter;
import java.util.Locale;

/**
 * The text output's {@code # data path: ...} line: the system call each end of a stream made, how
 * many calls, and the datagrams (GSO/GRO segments counted one by one) or writes each carried, then
 * why the payload was not checked where it was not. Nothing where the transport reports no path.
 */
final class DataPathText {
    private DataPathText() {}

    /**
     * @param out where to write
     * @param tag the line's tag ({@code [rev] }), or empty
     * @param r the result
     */
    static void print(PrintWriter out, String tag, TransferResult r) {
        r.dataPath().ifPresent(p -> out.println(tag + line(p)));
    }

    static String line(DataPath p) {
        return "# data path: sender " + end(p.sender()) + "; receiver " + end(p.receiver())
                + (p.payloadNote().isEmpty() ? "" : "; " + p.payloadNote());
    }

    private static String end(DataPath.End e) {
        if (!e.reported()) {
            return e.call();
        }
        return String.format(Locale.ROOT, "%s, %d %s, %.1f per call (at most %d)", e.call(), e.calls(),
                e.calls() == 1 ? "call" : "calls", e.segmentsPerCall(), e.maxSegmentsPerCall());
    }
}
