package io.linerate.regression;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.sink.KtapDocument;
import io.linerate.regression.internal.Json;
import io.linerate.regression.internal.Fmt;
import io.linerate.regression.internal.SvgChart;
import java.io.PrintWriter;
import java.io.StringWriter;

/**
 * Writes a {@link GateReport} in the formats of docs/metrics.md section 5: KTAP, JSON, a Markdown
 * table and an SVG chart. Every number is formatted with {@link java.util.Locale#ROOT}; output
 * depends on nothing but the report.
 */
public final class Reports {
    /** Value of {@code format} in the JSON report. */
    public static final String JSON_FORMAT = "linerate-gate-report";
    /** Version of the JSON report. */
    public static final int JSON_VERSION = 1;

    private Reports() {}

    /**
     * Counts of the report's KTAP results, as kselftest's {@code # Totals:} line prints them: pass
     * for pass, unchanged and improvement; fail for regression and failing missing and skip; xfail
     * for advisory regressions (expected failures that do not fail); xpass always 0 (linerate has
     * no expected-to-fail metric that can pass); skip for inconclusive, skip and skipped missing;
     * error for error.
     *
     * @return the totals of {@code report}
     */
    public static KtapDocument.Totals totals(GateReport report) {
        int pass = 0;
        int fail = 0;
        int xfail = 0;
        int skip = 0;
        int error = 0;
        for (Verdict v : report.verdicts()) {
            switch (v.kind()) {
                case PASS, UNCHANGED, IMPROVEMENT -> pass++;
                case REGRESSION -> fail++;
                case ADVISORY_REGRESSION -> xfail++;
                case INCONCLUSIVE -> skip++;
                case MISSING, SKIP -> {
                    if (v.failing()) {
                        fail++;
                    } else {
                        skip++;
                    }
                }
                case ERROR -> error++;
                default -> throw new IllegalStateException("unknown verdict " + v.kind());
            }
        }
        return new KtapDocument.Totals(pass, fail, xfail, 0, skip, error);
    }

    /**
     * KTAP version 1 (the kernel's {@code Documentation/dev-tools/ktap.rst}), with the totals line
     * of the kernel's kselftest harness: a plan, then per verdict one diagnostic line with its details and policy
     * source, and one result line: {@code ok N name@host} for pass, unchanged and improvement;
     * {@code not ok N name@host # regressed -7.1% (base 92.1, cur 85.6 Mbit/s, tol 5%)};
     * {@code ok N name@host # XFAIL advisory: regressed ...}; {@code ok N name@host # SKIP reason}
     * for inconclusive, skip and skipped missing; {@code not ok N name@host # skipped: ...} for a
     * skip under {@code on_skip: fail}; {@code not ok N name@host # missing: ...};
     * {@code not ok N name@host # error: ...}; ending with {@link KtapDocument.Totals#line()}; written by {@link KtapDocument}.
     *
     * @return the report, lines ending in {@code \n}
     */
    public static String ktap(GateReport report) {
        StringWriter text = new StringWriter();
        KtapDocument doc = KtapDocument.start(new PrintWriter(text), report.verdicts().size());
        for (Problem w : report.warnings()) {
            doc.diagnostic("warning: " + w.where() + ": " + w.message());
        }
        for (Verdict v : report.verdicts()) {
            String name = v.key().display();
            StringBuilder sb = new StringBuilder(name).append(": ").append(v.kind().label());
            if (v.baseline() != null || v.current() != null) {
                sb.append(' ').append(change(v)).append(' ').append(numbers(v));
            }
            if (!v.method().isEmpty()) {
                sb.append(", ").append(v.compare()).append(" by ").append(v.method());
            }
            doc.diagnostic(sb.append(", policy ").append(v.policySource()).append(": ").append(v.reason()).toString());
            switch (v.kind()) {
                case PASS, UNCHANGED, IMPROVEMENT -> doc.ok(name);
                case REGRESSION -> doc.fail(name, "regressed " + change(v) + " " + numbers(v));
                case ADVISORY_REGRESSION -> doc.xfail(name, "advisory: regressed " + change(v) + " " + numbers(v));
                case INCONCLUSIVE -> doc.skip(name, v.reason());
                case MISSING -> {
                    if (v.failing()) {
                        doc.fail(name, "missing: " + v.reason());
                    } else {
                        doc.skip(name, "missing: " + v.reason());
                    }
                }
                case SKIP -> {
                    if (v.failing()) {
                        doc.fail(name, v.reason());
                    } else {
                        doc.skip(name, v.reason());
                    }
                }
                case ERROR -> doc.error(name, v.reason());
                default -> throw new IllegalStateException("unknown verdict " + v.kind());
            }
        }
        doc.end();
        return text.toString();
    }

    /**
     * @return the change of {@code v}: relative ({@code -7.1%}) when defined; otherwise, when both
     *     values are there (a baseline of 0), the absolute difference in the unit, in percentage
     *     points for {@code %} ({@code +50 pp}, {@code +0.3 ms}); otherwise {@code n/a}. Never an
     *     infinity or NaN.
     */
    public static String change(Verdict v) {
        if (v.change() != null && Double.isFinite(v.change())) {
            return Fmt.signedPercent(v.change());
        }
        if (v.baseline() != null && v.current() != null && Double.isFinite(v.current() - v.baseline())) {
            double d = v.current() - v.baseline();
            String unit = v.unit().equals("%") ? " pp" : v.unit().isEmpty() ? "" : " " + v.unit();
            return (d < 0 ? "-" : "+") + Fmt.num(Math.abs(d)) + unit;
        }
        return "n/a";
    }

    /** @return {@code (base 92.1, cur 85.6 Mbit/s, tol 5%)} for {@code v} */
    public static String numbers(Verdict v) {
        String unit = v.unit().isEmpty() ? "" : " " + v.unit();
        StringBuilder sb = new StringBuilder("(base ").append(Fmt.num(v.baseline())).append(", cur ")
                .append(Fmt.num(v.current())).append(unit);
        if (v.tolerance() != null) {
            sb.append(", tol ").append(Fmt.percent(v.tolerance()));
        }
        if (v.absoluteTolerance() != null && v.absoluteTolerance() > 0) {
            sb.append(", abs ").append(Fmt.num(v.absoluteTolerance())).append(unit);
        }
        return sb.append(')').toString();
    }

    /**
     * The JSON report: {@code {"format":"linerate-gate-report","version":1,"exit_code":..,
     * "totals":{pass,fail,xfail,xpass,skip,error},"warnings":[{"where","message"}],
     * "verdicts":[{"test","name","host","labels","verdict","failing","unit","baseline","current",
     * "change","tolerance","absolute_tolerance","compare","method","p_value",
     * "runs":{"baseline","current"},"policy_source","reason"}]}}, two-space indented; absent numbers
     * are {@code null} (as are infinities and NaN, which never appear); {@code change} and
     * {@code tolerance} are fractions.
     */
    public static String json(GateReport report) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("format", JSON_FORMAT);
        root.put("version", JSON_VERSION);
        root.put("exit_code", report.exitCode());
        KtapDocument.Totals t = totals(report);
        ObjectNode tn = root.putObject("totals");
        tn.put("pass", t.pass());
        tn.put("fail", t.fail());
        tn.put("xfail", t.xfail());
        tn.put("xpass", t.xpass());
        tn.put("skip", t.skip());
        tn.put("error", t.error());
        var warnings = root.putArray("warnings");
        for (Problem w : report.warnings()) {
            ObjectNode wn = warnings.addObject();
            wn.put("where", w.where());
            wn.put("message", w.message());
        }
        var arr = root.putArray("verdicts");
        for (Verdict v : report.verdicts()) {
            ObjectNode n = arr.addObject();
            n.put("test", v.key().test());
            n.put("name", v.key().name());
            n.put("host", v.key().host());
            ObjectNode labels = n.putObject("labels");
            v.key().labels().forEach(labels::put);
            n.put("verdict", v.kind().label());
            n.put("failing", v.failing());
            n.put("unit", v.unit());
            n.put("baseline", finite(v.baseline()));
            n.put("current", finite(v.current()));
            n.put("change", finite(v.change()));
            n.put("tolerance", finite(v.tolerance()));
            n.put("absolute_tolerance", finite(v.absoluteTolerance()));
            n.put("compare", v.compare());
            n.put("method", v.method());
            n.put("p_value", finite(v.pValue()));
            ObjectNode runs = n.putObject("runs");
            runs.put("baseline", v.baselineRuns());
            runs.put("current", v.currentRuns());
            n.put("policy_source", v.policySource());
            n.put("reason", v.reason());
        }
        try {
            return Json.PRETTY.writeValueAsString(root) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write report: " + e.getMessage(), e);
        }
    }

    /**
     * A GitHub-flavoured Markdown table for pull-request comments: a summary line with the totals,
     * then one row per verdict with metric, verdict (bold when failing), baseline, current, change,
     * tolerance, statistic and method (with p-value), policy source and reason. Pipes in cells are
     * escaped.
     */
    public static String markdown(GateReport report) {
        KtapDocument.Totals t = totals(report);
        StringBuilder sb = new StringBuilder();
        sb.append("**linerate gate: ").append(report.exitCode() == 0 ? "passed" : "failed").append("** (pass ")
                .append(t.pass()).append(", fail ").append(t.fail()).append(", xfail ").append(t.xfail())
                .append(", skip ").append(t.skip()).append(", error ").append(t.error()).append(")\n\n");
        sb.append("| Metric | Verdict | Baseline | Current | Change | Tolerance | Compared | Policy | Reason |\n");
        sb.append("|---|---|---:|---:|---:|---:|---|---|---|\n");
        for (Verdict v : report.verdicts()) {
            String unit = v.unit().isEmpty() ? "" : " " + v.unit();
            String kind = v.failing() ? "**" + v.kind().label() + "**" : v.kind().label();
            String compared = v.method().isEmpty() ? "" : v.compare() + " by " + v.method()
                    + (finite(v.pValue()) == null ? "" : String.format(java.util.Locale.ROOT, " (p=%.4g)", v.pValue()));
            sb.append("| ").append(cell("`" + v.key().display() + "`")).append(" | ").append(kind).append(" | ")
                    .append(v.baseline() == null ? "n/a" : cell(Fmt.num(v.baseline()) + unit)).append(" | ")
                    .append(v.current() == null ? "n/a" : cell(Fmt.num(v.current()) + unit)).append(" | ")
                    .append(change(v)).append(" | ")
                    .append(v.tolerance() == null ? "" : Fmt.percent(v.tolerance())).append(" | ")
                    .append(cell(compared)).append(" | ").append(v.policySource()).append(" | ")
                    .append(cell(v.reason())).append(" |\n");
        }
        for (Problem w : report.warnings()) {
            sb.append("\nWarning: ").append(cell(w.where() + ": " + w.message())).append('\n');
        }
        return sb.toString();
    }

    /**
     * The SVG chart of docs/metrics.md section 7: one panel per unit, a group per series with the
     * baseline bar (solid grey) beside the current bar (hatched blue); see {@code SvgChart}.
     *
     * @param report the verdicts to draw
     * @param title the chart's title, XML-escaped on output
     * @return a self-contained SVG document
     */
    public static String svg(GateReport report, String title) {
        return SvgChart.render(report.verdicts(), title);
    }

    /** @return {@code d}, or null when it is null, infinite or NaN, so no output ever shows those */
    private static Double finite(Double d) {
        return d != null && Double.isFinite(d) ? d : null;
    }

    private static String oneLine(String s) {
        return s.replace("\r", " ").replace("\n", " ");
    }

    private static String cell(String s) {
        return oneLine(s).replace("|", "\\|");
    }
}
