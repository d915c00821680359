package io.linerate.regression;

import java.util.List;

/**
 * The outcome of a gate: one verdict per series, and warnings that do not fail.
 *
 * @param verdicts verdicts in report order: current series in first-read order, then missing ones
 *     in baseline order, then errors not tied to a series
 * @param warnings problems reported but not failing
 */
public record GateReport(List<Verdict> verdicts, List<Problem> warnings) {
    /** @throws NullPointerException for null lists */
    public GateReport {
        verdicts = List.copyOf(verdicts);
        warnings = List.copyOf(warnings);
    }

    /** @return 1 when any verdict fails (regression, error, failing missing or skip), otherwise 0 */
    public int exitCode() {
        return verdicts.stream().anyMatch(Verdict::failing) ? 1 : 0;
    }

    /**
     * @return the error verdicts of the input (its series and lines), not the gate's own verdict that it
     *     compared nothing ({@link NothingCompared}): what stops a baseline from being saved
     */
    public long inputErrors() {
        return verdicts.stream().filter(v -> v.kind() == Verdict.Kind.ERROR && !v.key().host().equals(NothingCompared.HOST))
                .count();
    }

    /** @return the failing verdicts */
    public List<Verdict> failures() {
        return verdicts.stream().filter(Verdict::failing).toList();
    }
}
