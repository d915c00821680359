package io.linerate.regression;

import io.linerate.regression.internal.InputText;
import io.linerate.regression.internal.Iperf3Reader;
import io.linerate.regression.internal.LinerateJsonReader;
import io.linerate.regression.internal.LogReader;
import io.linerate.regression.internal.TwisterReader;
import java.util.List;

/**
 * The built-in readers, tried in order: Zephyr twister report, iperf3 {@code -J} output, a whole
 * linerate JSON document (a result object or an array), then text logs (ktap metric and policy
 * lines, {@code ZPERF-RESULT} lines, linerate's JSON lines), which accept anything.
 */
public final class MetricReaders {
    private static final List<MetricReader> BUILT_IN = List.of(new TwisterReader(), new Iperf3Reader(),
            new LinerateJsonReader(), new LogReader());

    private MetricReaders() {}

    /** @return the built-in readers in the order they are tried */
    public static List<MetricReader> builtIn() {
        return BUILT_IN;
    }

    /**
     * Reads {@code content} with the first reader that accepts it, after dropping a leading
     * UTF-8 byte-order mark (U+FEFF).
     *
     * @param source name of the input, for messages and as the default run id
     * @param content the input's text
     * @return what was read; problems, including an input without any metric or skipped KTAP
     *     test, are in {@link MetricSet#errors()}, never thrown
     */
    public static MetricSet read(String source, String content) {
        MetricSet out = new MetricSet();
        String text = InputText.withoutBom(content);
        for (MetricReader r : BUILT_IN) {
            if (r.accepts(text)) {
                r.read(source, text, out);
                break;
            }
        }
        if (out.observations().isEmpty() && out.errors().isEmpty() && out.skippedTests().isEmpty()) {
            out.error(new Problem(source, 0, "", "", "input holds no metrics (no ktap-metric-json, ZPERF-RESULT or"
                    + " linerate JSON lines, twister recordings or iperf3 intervals)"));
        }
        return out;
    }
}
