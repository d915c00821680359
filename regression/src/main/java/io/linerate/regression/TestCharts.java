package io.linerate.regression;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One SVG chart ({@link Reports#svg}) per test of a gate report, each named after its test: file
 * names derived from input data, so every one goes through {@link SafePaths} (docs/metrics.md
 * section 8). The test path {@code sample.net.zperf} gives {@code sample.net.zperf.svg}, a nested
 * path {@code suite/case} gives {@code suite/case.svg} (the directory is created), and the series
 * without a test share {@value #NO_TEST}{@code .svg}.
 */
public final class TestCharts {
    /** Base name of the chart of the series that belong to no test. */
    public static final String NO_TEST = "gate";

    private TestCharts() {}

    /**
     * @param dir the output directory every chart must stay under
     * @param report the verdicts to draw
     * @param title the title of each chart, followed by the test's name
     * @return the files written, in the order their tests first appear in the report
     * @throws SafePaths.UnsafePathException naming the path, when a test's name is absolute or has
     *     {@code ..} (then nothing is written) or leads outside {@code dir} through a link
     * @throws IOException when a chart cannot be written
     */
    public static List<Path> write(SafePaths dir, GateReport report, String title) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Map<String, List<Verdict>> byTest = new LinkedHashMap<>();
        for (Verdict v : report.verdicts()) {
            String test = v.key().test().isEmpty() ? NO_TEST : v.key().test();
            byTest.computeIfAbsent(test, t -> new ArrayList<>()).add(v);
        }
        for (String test : byTest.keySet()) {
            SafePaths.checkSyntax(test + ".svg");
        }
        List<Path> out = new ArrayList<>();
        for (Map.Entry<String, List<Verdict>> e : byTest.entrySet()) {
            Path target = dir.forCreating(e.getKey() + ".svg");
            Files.writeString(target, Reports.svg(new GateReport(e.getValue(), List.of()), title + ": " + e.getKey()),
                    StandardCharsets.UTF_8);
            out.add(target);
        }
        return out;
    }
}
