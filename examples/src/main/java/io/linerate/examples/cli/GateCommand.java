package io.linerate.examples.cli;

import io.linerate.regression.Baseline;
import io.linerate.regression.Environment;
import io.linerate.regression.Gate;
import io.linerate.regression.GateFiles;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Policies;
import io.linerate.regression.Reports;
import io.linerate.regression.SafePaths;
import io.linerate.regression.Verdict;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate gate}: reads metrics, compares them with a baseline and prints a KTAP report
 * ending in {@code # Totals:}. Exit codes: 0 nothing regressed or errored, 1 something did (or a
 * {@code --save} was refused because the input has errors), 2 bad usage or an unreadable, unsafe
 * or invalid file, with a message naming it and no stack trace.
 */
@Command(name = "gate", mixinStandardHelpOptions = true,
        description = {"Compares metrics (ktap metric lines, ZPERF-RESULT lines, linerate JSON, twister.json,"
                + " iperf3 -J) with a baseline and fails on a regression.",
                "Exit 0: no regression; 1: a regression, missing metric or bad input line; 2: bad usage."})
public final class GateCommand implements Callable<Integer> {
    static final int OK = 0;
    static final int FAILED = 1;
    static final int USAGE = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--input", required = true, arity = "1..*", paramLabel = "FILE",
            description = "Logs or reports to read; each file is one run unless its lines say otherwise.")
    List<String> inputs;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Baseline to compare with.")
    String baseline;

    @Option(names = "--save", paramLabel = "FILE", description = "Write the inputs as a new baseline (refused when an input has errors).")
    String save;

    @Option(names = "--tolerance", paramLabel = "PERCENT",
            description = "Relative tolerance in percent, 0 to 100, replacing every policy's own.")
    Double tolerance;

    @Option(names = "--policy", paramLabel = "FILE", description = "Reviewed policy file; unknown keys are errors.")
    String policy;

    @Option(names = "--plot", paramLabel = "FILE.svg", description = "Write the SVG chart.")
    String plot;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the verdicts as JSON.")
    String report;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "Write the verdicts as a Markdown table.")
    String markdown;

    @Option(names = "--base-dir", paramLabel = "DIR", defaultValue = ".",
            description = "Every file must resolve under this directory (default: the working directory).")
    Path baseDir;

    @Option(names = "--allow-env-mismatch", description = "Compare even when the baseline was measured elsewhere.")
    boolean allowEnvMismatch;

    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "nio",
            description = "Transport the inputs were measured with, recorded in and compared with the baseline (default: nio).")
    String transport;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try {
            if (tolerance != null && !(tolerance >= 0 && tolerance <= 100)) {
                return usage(err, "--tolerance " + number(tolerance) + " is not allowed; allowed: 0 to 100 (percent)");
            }
            SafePaths paths = new SafePaths(baseDir);
            for (String o : new String[] {save, plot, report, markdown}) {
                if (o != null) {
                    paths.forWriting(o);
                }
            }
            Policies policies = GateFiles.readPolicies(paths, policy);
            Baseline base = baseline == null ? null : GateFiles.readBaseline(paths, baseline);
            MetricSet current = GateFiles.readInputs(paths, inputs);
            Environment env = Environment.detect(transport);
            Gate gate = Gate.create().baseline(base).policies(policies)
                    .tolerance(tolerance == null ? null : tolerance / 100).allowEnvironmentMismatch(allowEnvMismatch)
                    .environment(env);
            GateReport result = gate.run(current);
            out.print(Reports.ktap(result));
            out.flush();
            if (report != null) {
                paths.write(report, Reports.json(result));
            }
            if (markdown != null) {
                paths.write(markdown, Reports.markdown(result));
            }
            if (plot != null) {
                paths.write(plot, Reports.svg(result, "linerate gate"));
            }
            if (save != null) {
                long errors = result.verdicts().stream().filter(v -> v.kind() == Verdict.Kind.ERROR).count();
                if (errors > 0) {
                    err.println("gate: not saving baseline " + save + ": the input has " + errors
                            + " error verdict(s); fix the input first");
                    err.flush();
                    return FAILED;
                }
                Baseline saved = gate.baselineOf(current, env, Instant.now().truncatedTo(ChronoUnit.SECONDS));
                paths.write(save, saved.toJson());
                err.println("gate: saved baseline " + save + " (" + saved.series().size() + " series)");
                err.flush();
            }
            return result.exitCode();
        } catch (IllegalArgumentException e) {
            return usage(err, e.getMessage());
        } catch (IOException e) {
            return usage(err, "cannot read or write a file: " + e.getMessage());
        }
    }

    /** @return {@code v} as typed, without exponent or locale ({@code -5}, {@code 2.5}, {@code NaN}) */
    static String number(double v) {
        return Double.isFinite(v) ? java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : Double.toString(v);
    }

    private static int usage(PrintWriter err, String message) {
        err.println("gate: " + message);
        err.flush();
        return USAGE;
    }
}
