package io.linerate.regression;

import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A gate given a baseline has passed only when it compared something (METRICS-SPEC section 5): when
 * no series got a compared verdict ({@code pass}, {@code unchanged}, {@code improvement},
 * {@code regression} or {@code advisory-regression} against a baseline value), because none was in
 * common, every baselined one was missing, skipped or inconclusive (and no error, which fails
 * already and says what is wrong with the input), the gate adds one failing
 * {@code error} verdict, {@value #NAME}{@code @}{@value #HOST}, that says what each side had and,
 * for an environment difference, which fields differ and how to accept it.
 */
final class NothingCompared {
    /** Name of the verdict's series. */
    static final String NAME = "baseline";
    /** Host of the verdict's series: the gate itself. */
    static final String HOST = "gate";
    private static final int NAMED = 5;
    private static final Set<Verdict.Kind> COMPARED = EnumSet.of(Verdict.Kind.PASS, Verdict.Kind.UNCHANGED,
            Verdict.Kind.IMPROVEMENT, Verdict.Kind.REGRESSION, Verdict.Kind.ADVISORY_REGRESSION);

    private NothingCompared() {}

    /**
     * @param verdicts the gate's verdicts
     * @param baselineKeys the baseline's series
     * @param currentKeys the series this run produced
     * @param envDiff the environment fields that differ, as {@link Environment#differences} words them
     * @return the failing verdict when nothing was compared; empty when something was
     */
    static Optional<Verdict> check(List<Verdict> verdicts, Collection<SeriesKey> baselineKeys,
                                   Collection<SeriesKey> currentKeys, List<String> envDiff) {
        for (Verdict v : verdicts) {
            if (COMPARED.contains(v.kind()) && v.baseline() != null || v.kind() == Verdict.Kind.ERROR) {
                // compared something; or an error, which fails already and says what is wrong with the input
                return Optional.empty();
            }
        }
        List<String> why = new ArrayList<>();
        long common = baselineKeys.stream().filter(currentKeys::contains).count();
        if (baselineKeys.isEmpty()) {
            why.add("the baseline has no series");
        } else if (common == 0) {
            why.add("no series is in both");
        }
        if (!envDiff.isEmpty()) {
            why.add("the environment differs (" + String.join("; ", envDiff) + "), so every comparison is inconclusive;"
                    + " if the difference does not matter, accept it with --allow-env-mismatch"
                    + " (Gate.allowEnvironmentMismatch(true)), or save a baseline in this environment");
        }
        for (Verdict.Kind k : List.of(Verdict.Kind.MISSING, Verdict.Kind.SKIP, Verdict.Kind.INCONCLUSIVE)) {
            long n = verdicts.stream().filter(v -> v.kind() == k).count();
            if (n > 0 && !(k == Verdict.Kind.INCONCLUSIVE && !envDiff.isEmpty())) {
                why.add(n + " " + k.label());
            }
        }
        String reason = "compared nothing against the baseline: " + String.join("; ", why)
                + ". The baseline had " + named(baselineKeys) + "; this run produced " + named(currentKeys);
        return Optional.of(Comparison.error(SeriesKey.of(NAME, HOST), "", null, reason));
    }

    private static String named(Collection<SeriesKey> keys) {
        if (keys.isEmpty()) {
            return "no series";
        }
        List<String> names = keys.stream().limit(NAMED).map(SeriesKey::display).toList();
        int more = keys.size() - names.size();
        return keys.size() + " series (" + String.join(", ", names) + (more > 0 ? " and " + more + " more" : "") + ")";
    }
}
