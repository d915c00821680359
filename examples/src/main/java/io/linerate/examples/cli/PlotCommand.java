package io.linerate.examples.cli;

import io.linerate.core.search.LossCurve;
import io.linerate.regression.Baseline;
import io.linerate.regression.Environment;
import io.linerate.regression.Gate;
import io.linerate.regression.GateFiles;
import io.linerate.regression.GateReport;
import io.linerate.regression.LossChart;
import io.linerate.regression.Policies;
import io.linerate.regression.Reports;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate plot}: writes the grouped baseline-vs-current bar chart (docs/metrics.md section 7)
 * of the inputs, or the current values alone without a baseline; paths are used as typed. It draws, it does not gate:
 * exit 0 when the chart was written, 1 when it was written but an input had errors (named on
 * stderr), 2 for bad usage or an unreadable or invalid file.
 */
@Command(name = "plot", mixinStandardHelpOptions = true,
        description = {"Writes an SVG bar chart of metrics, beside their baseline when one is given; with --search, the chart of "
                + "loss against offered load of a saved search result.",
                "Exit codes: 0 written, 1 an input had errors (named on stderr; the chart shows the rest), 2 bad usage."})
public final class PlotCommand implements Callable<Integer>, ExitCodes.UserFiles {
    @Spec
    CommandSpec spec;

    @Option(names = "--input", arity = "1..*", paramLabel = "FILE", description = "Logs or reports to read.")
    List<Path> inputs;

    @Option(names = "--search", paramLabel = "FILE.json",
            description = "Instead of --input: a saved `search --json` (or `search --loss-sweep --json`) result, drawn as "
                    + "loss against offered load over its trials with the found rate marked, as `search --plot` does.")
    Path search;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Baseline to draw beside the current values.")
    Path baseline;

    @Option(names = {"--output", "-o"}, required = true, paramLabel = "FILE.svg", description = "Where the chart goes.")
    Path output;

    @Option(names = "--title", defaultValue = "linerate", paramLabel = "TEXT", description = "Chart title (default: linerate).")
    String title;

    @Option(names = "--tolerance", paramLabel = "PERCENT", description = "Relative tolerance in percent, 0 to 100, for the regressed markers.")
    Double tolerance;

    @Option(names = "--policy", paramLabel = "FILE", description = "Reviewed policy file; unknown keys are errors.")
    Path policy;

    @Option(names = "--allow-env-mismatch", description = "Mark regressions even when the baseline was measured elsewhere.")
    boolean allowEnvMismatch;

    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "nio", description = "Transport the inputs were measured with (default: nio).")
    String transport;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if ((inputs == null) == (search == null)) {
            throw new IllegalArgumentException("give exactly one of --input FILE... (metrics) and --search FILE.json "
                    + "(a saved search result)");
        }
        if (search != null) {
            return plotSearch();
        }
        if (tolerance != null && !(tolerance >= 0 && tolerance <= 100)) {
            throw new IllegalArgumentException("--tolerance " + GateCommand.number(tolerance)
                    + " is not allowed; allowed: 0 to 100 (percent)");
        }
        Policies policies = GateFiles.readPolicies(policy);
        Baseline base = baseline == null ? null : GateFiles.readBaseline(baseline);
        GateReport result = Gate.create().baseline(base).policies(policies)
                .tolerance(tolerance == null ? null : tolerance / 100).allowEnvironmentMismatch(allowEnvMismatch)
                .environment(Environment.detect(transport)).run(GateFiles.readInputs(inputs));
        GateFiles.writeReport(output, Reports.svg(result, title));
        spec.commandLine().getOut().println("plot: wrote " + output + " (" + result.verdicts().size() + " series)");
        spec.commandLine().getOut().flush();
        // the chart draws what could be read; bad input is still an error, as in gate
        long errors = 0;
        for (var v : result.verdicts()) {
            if (v.kind() == io.linerate.regression.Verdict.Kind.ERROR) {
                errors++;
                err.println("plot: " + v.key().display() + ": " + v.reason());
            }
        }
        err.flush();
        return errors > 0 ? Linerate.FAILED : Linerate.OK;
    }

    private int plotSearch() throws IOException {
        LossCurve curve;
        try {
            curve = LossCurve.fromJson(Files.readString(search, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(search + ": " + e.getMessage(), e);
        }
        String t = "linerate".equals(title) ? curve.marker() + " " + curve.label() : title;
        GateFiles.writeReport(output, LossChart.svg(curve, t));
        spec.commandLine().getOut().println("plot: wrote " + output + " (" + curve.points().size() + " trials)");
        spec.commandLine().getOut().flush();
        return Linerate.OK;
    }
}
