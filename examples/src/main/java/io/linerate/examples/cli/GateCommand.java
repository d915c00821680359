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
import io.linerate.regression.TestCharts;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code linerate gate}: reads metrics, compares them with a baseline and prints a KTAP report
 * ending in {@code # Totals:}. Every path typed is used as typed (absolute and {@code ..} included);
 * the file names derived from the input data (the per-test charts of a bare {@code --plot}) go
 * through {@link SafePaths} under {@code --base-dir}. {@code --twister-json} and {@code --base-dir}
 * make zperf_regression.py's command lines run.
 * {@code --save} never replaces an existing file without {@code --force}. Exit codes: 0 nothing
 * regressed or errored, 1 something did (or a {@code --save} was refused because the input has
 * errors), 2 bad usage, an unreadable or invalid file, or a {@code --save} over an existing
 * baseline without {@code --force}, with a message naming it and no stack trace ({@link ExitCodes}:
 * every file of this command is one the user named).
 */
@Command(name = "gate", mixinStandardHelpOptions = true,
        description = {"Compares metrics (ktap metric lines, ZPERF-RESULT lines, linerate JSON, twister.json,"
                + " iperf3 -J) with a baseline and fails on a regression.",
                "Gate on at least " + Gate.RECOMMENDED_RUNS + " runs per side (loopback --repeat " + Gate.RECOMMENDED_RUNS
                        + "): with fewer, noise cannot be told from change; the threshold alone decides and the report"
                        + " warns 'low runs'. From " + Gate.RECOMMENDED_RUNS + " runs a side, a change beyond the tolerance"
                        + " must also be significant (exact Mann-Whitney, alpha 0.01).",
                "Paths are used as typed. Exit 0: no regression; 1: a regression, missing metric or bad input line;"
                        + " 2: bad usage."})
public final class GateCommand implements Callable<Integer>, ExitCodes.UserFiles {

    @Spec
    CommandSpec spec;

    @Option(names = "--input", arity = "1..*", paramLabel = "FILE",
            description = "Logs or reports to read (required, or --twister-json); each file is one run unless its lines"
                    + " say otherwise.")
    List<Path> inputs = new ArrayList<>();

    @Option(names = "--twister-json", arity = "1..*", paramLabel = "FILE",
            description = "The same as --input, under zperf_regression.py's name.")
    List<Path> twisterJson = new ArrayList<>();

    @Option(names = "--base-dir", paramLabel = "DIR",
            description = "Directory for the files named after the input data (the charts of --plot without a FILE);"
                    + " such names must stay under it. Default: the working directory. Typed paths are used as typed.")
    Path baseDir;

    @Option(names = "--baseline", paramLabel = "FILE", description = "Baseline to compare with.")
    Path baseline;

    @Option(names = "--save", paramLabel = "FILE",
            description = "Write the inputs as a new baseline (refused when an input has errors, or when FILE exists without --force).")
    Path save;

    @Option(names = "--force", description = "Let --save replace an existing baseline.")
    boolean force;

    @Option(names = "--tolerance", paramLabel = "PERCENT",
            description = "Relative tolerance in percent, 0 to 100, replacing every policy's own.")
    Double tolerance;

    @Option(names = "--policy", paramLabel = "FILE", description = "Reviewed policy file; unknown keys and a relative_tolerance outside 0 to 1 are errors.")
    Path policy;

    @Option(names = "--plot", arity = "0..1", fallbackValue = "", paramLabel = "FILE.svg",
            description = "Write the SVG chart to FILE.svg; without FILE, one chart per test, <test>.svg under --base-dir.")
    String plot;

    @Option(names = "--report", paramLabel = "FILE.json", description = "Write the verdicts as JSON.")
    Path report;

    @Option(names = "--markdown", paramLabel = "FILE.md", description = "Write the verdicts as a Markdown table.")
    Path markdown;

    @Option(names = "--allow-env-mismatch", description = "Compare even when the baseline was measured elsewhere.")
    boolean allowEnvMismatch;

    @Option(names = "--transport", paramLabel = "NAME", defaultValue = "nio",
            description = "Transport the inputs were measured with, recorded in and compared with the baseline (default: nio).")
    String transport;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (tolerance != null && !(tolerance >= 0 && tolerance <= 100)) {
            throw new IllegalArgumentException("--tolerance " + number(tolerance) + " is not allowed; allowed: 0 to 100 (percent)");
        }
        if (save != null && !force && Files.exists(save, LinkOption.NOFOLLOW_LINKS)) {
            throw new IllegalArgumentException(refusedOverwrite(save));
        }
        List<Path> all = new ArrayList<>(inputs);
        all.addAll(twisterJson);
        if (all.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "Missing required option: '--input=FILE'");
        }
        SafePaths derived = new SafePaths(baseDir == null ? Path.of("") : baseDir);
        Policies policies = GateFiles.readPolicies(policy);
        Baseline base = baseline == null ? null : GateFiles.readBaseline(baseline);
        MetricSet current = GateFiles.readInputs(all);
        Environment env = Environment.detect(transport);
        Gate gate = Gate.create().baseline(base).policies(policies)
                .tolerance(tolerance == null ? null : tolerance / 100).allowEnvironmentMismatch(allowEnvMismatch)
                .environment(env);
        GateReport result = gate.run(current);
        out.print(Reports.ktap(result));
        out.flush();
        if (report != null) {
            GateFiles.writeReport(report, Reports.json(result));
        }
        if (markdown != null) {
            GateFiles.writeReport(markdown, Reports.markdown(result));
        }
        if (plot != null && !plot.isEmpty()) {
            GateFiles.writeReport(Path.of(plot), Reports.svg(result, "linerate gate"));
        } else if (plot != null) {
            TestCharts.write(derived, result, "linerate gate");
        }
        if (save != null) {
            long errors = result.inputErrors();
            if (errors > 0) {
                err.println("gate: not saving baseline " + save + ": the input has " + errors
                        + " error verdict(s); fix the input first");
                err.flush();
                return Linerate.FAILED;
            }
            Baseline saved = gate.baselineOf(current, env, Instant.now().truncatedTo(ChronoUnit.SECONDS));
            if (saved.series().isEmpty()) {
                // every later gate against it would compare nothing
                err.println("gate: not saving baseline " + save + ": the input holds no series (every test in it was"
                        + " skipped?); save a run that measured something");
                err.flush();
                return Linerate.FAILED;
            }
            try {
                GateFiles.writeBaseline(save, saved, force);
            } catch (FileAlreadyExistsException e) {
                // made between the check above and the write: refused the same way
                throw new IllegalArgumentException(refusedOverwrite(save), e);
            }
            err.println("gate: saved baseline " + save + " (" + saved.series().size() + " series)");
            err.flush();
        }
        return result.exitCode();
    }

    private static String refusedOverwrite(Path save) {
        return "not saving baseline " + save + ": the file exists, and a baseline is only replaced on purpose."
                + " To update it, gate the new run against it first (--baseline " + save + "), review the report,"
                + " then save again with --force; or --save a new file";
    }

    /** @return {@code v} as typed, without exponent or locale ({@code -5}, {@code 2.5}, {@code NaN}) */
    static String number(double v) {
        return Double.isFinite(v) ? java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString() : Double.toString(v);
    }

}
