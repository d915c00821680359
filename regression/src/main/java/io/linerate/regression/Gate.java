package io.linerate.regression;

import io.linerate.regression.internal.Fmt;
import io.linerate.regression.internal.MannWhitney;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Judges current metrics against an optional baseline (docs/metrics.md sections 3 to 5).
 *
 * <p>Per series: the policy is resolved ({@link Policies}: policy file, then embedded lines of the
 * current input, then the policy the baseline stored with the series, then the default); each
 * run's samples have {@code omit_first_s}/{@code omit_last_s} dropped (relative to the run's first
 * and last sample time) and are summarized into data points ({@code distribution} keeps every
 * sample, the others give one point per run); both sides' data are then compared by the policy's method:
 * <ul>
 * <li>{@code threshold}: the compared statistic {@code b} of the baseline and {@code c} of the
 * current data; higher-better regresses when {@code c < b (1 - tol)}, lower-better when
 * {@code c > b (1 + tol)}, and in both cases only when also {@code |c - b| > absolute_tolerance}.
 * A change exactly at the tolerance (within 1e-9 relative, to absorb rounding) passes. The mirror
 * condition is an improvement; anything else passes.</li>
 * <li>{@code mann_whitney}: the one-sided Mann-Whitney U test, exact with ties up to 50 values
 * ({@code MannWhitney}); a regression needs {@code p < alpha} in the worsening direction and the
 * threshold condition; an improvement the mirror; otherwise unchanged.</li>
 * <li>{@code auto}, the default: {@code threshold} while either side has fewer data points than
 * {@code MannWhitney.minRunsFor(alpha)} (5 at alpha 0.01); from there on the threshold decides
 * pass, and a change beyond the tolerance counts as a regression or an improvement only when the
 * Mann-Whitney test also finds it significant, else it is unchanged.</li>
 * <li>{@code bootstrap}: a percentile bootstrap of the ratio {@code stat(current) / stat(base)}
 * with 2000 resamples and a fixed seed (see {@code Bootstrap}); higher-better regresses when the
 * upper {@code 1 - alpha} bound is below {@code 1 - tol}, lower-better when the lower
 * {@code alpha} bound is above {@code 1 + tol}; the absolute tolerance applies to the statistics.</li>
 * </ul>
 * A data point is one run's summary, or each kept sample under {@code summarize: distribution}.
 * With fewer data points than {@code min_runs} on either side the verdict is inconclusive. When
 * the current environment is given ({@link #environment(Environment)}), a baseline from another
 * environment makes every compared verdict inconclusive unless
 * {@link #allowEnvironmentMismatch(boolean)}. Without a baseline, every readable series passes.
 * A series without a policy from any source, whose direction its name and unit do not give, is an
 * {@code error} ({@code no policy, direction unknown}). A series whose policy has no regression
 * rule ({@link Policy#reportOnly()}, advisory) is reported, never judged: a {@code pass} verdict with
 * the p50 of both sides' data points and the change, however large. A baselined series absent now is
 * {@code skip} when its KTAP test reported {@code # SKIP} (see {@link SkippedTest#owning}), carrying
 * the reason and failing only under {@code on_skip: fail}, and {@code missing} otherwise. The
 * relative change is never infinite or NaN: it is absent when the baseline's statistic is 0.
 * Errors found while reading become {@code error} verdicts of their series, or of their
 * {@code source:line} (host {@code input}) when no series can be named. A gate given a baseline that
 * compared nothing fails with one more error verdict ({@link NothingCompared}).
 *
 * <p>Warnings beside the verdicts: those found while reading; a file policy that matches no metric
 * of the input or the baseline; per judged series, too few data points to tell noise from
 * change: fewer than {@link #runsNeeded(Policy)} on either side ({@value #RECOMMENDED_RUNS} at the
 * default alpha 0.01), naming the series and both counts; and a baseline of format version 1
 * compared with an input that nests KTAP tests ({@link Baseline#keyWarning}).
 */
public final class Gate {
    /** Runs per side recommended to tell noise from change at the default alpha 0.01. */
    public static final int RECOMMENDED_RUNS = 5;
    private static final int NAMED_INSTEAD = 5;
    private Baseline baseline;
    private Policies policies = Policies.none();
    private Double tolerance;
    private boolean allowEnvironmentMismatch;
    private Environment environment;

    /** @return a gate without baseline, policy file or tolerance override */
    public static Gate create() {
        return new Gate();
    }

    /**
     * @param b the baseline to compare with; null for none
     * @return this
     */
    public Gate baseline(Baseline b) {
        this.baseline = b;
        return this;
    }

    /**
     * @param p reviewed file policies
     * @return this
     */
    public Gate policies(Policies p) {
        this.policies = Objects.requireNonNull(p, "policies");
        return this;
    }

    /**
     * @param fraction relative tolerance replacing every policy's own, 0 &lt;= fraction &lt;= 1;
     *     null to keep the policies' tolerances
     * @return this
     * @throws IllegalArgumentException naming the value and the allowed range
     */
    public Gate tolerance(Double fraction) {
        if (fraction != null && !(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("tolerance " + Fmt.num(fraction * 100) + "% is not allowed; allowed: 0 to 100 percent");
        }
        this.tolerance = fraction;
        return this;
    }

    /**
     * @param allow compare even when the baseline's environment differs
     * @return this
     */
    public Gate allowEnvironmentMismatch(boolean allow) {
        this.allowEnvironmentMismatch = allow;
        return this;
    }

    /**
     * @param env the environment of the current measurement; compared with the baseline's
     * @return this
     */
    public Gate environment(Environment env) {
        this.environment = env;
        return this;
    }

    /**
     * @param current what was read
     * @return the verdicts; never throws for bad input, which becomes {@code error} verdicts
     */
    public GateReport run(MetricSet current) {
        List<Verdict> out = new ArrayList<>();
        Map<SeriesKey, List<Observation>> series = new LinkedHashMap<>();
        for (Observation o : current.observations()) {
            series.computeIfAbsent(o.key(), k -> new ArrayList<>()).add(o);
        }
        Map<SeriesKey, List<String>> seriesErrors = new LinkedHashMap<>();
        List<Problem> loose = new ArrayList<>();
        for (Problem p : current.errors()) {
            boolean matched = false;
            if (p.series() != null) {
                seriesErrors.computeIfAbsent(p.series(), x -> new ArrayList<>()).add(p.where() + ": " + p.message());
                matched = true;
            } else if (!p.name().isEmpty()) {
                for (SeriesKey k : series.keySet()) {
                    if (k.name().equals(p.name()) && (p.host().equals("*") || k.host().equals(p.host()))) {
                        seriesErrors.computeIfAbsent(k, x -> new ArrayList<>()).add(p.where() + ": " + p.message());
                        matched = true;
                    }
                }
                if (!matched && !p.host().equals("*")) {
                    SeriesKey k = SeriesKey.of(p.name(), p.host());
                    seriesErrors.computeIfAbsent(k, x -> new ArrayList<>()).add(p.where() + ": " + p.message());
                    matched = true;
                }
            }
            if (!matched) {
                loose.add(p);
            }
        }
        List<Problem> warnings = new ArrayList<>(current.warnings());
        Map<SeriesKey, Baseline.Series> base = new LinkedHashMap<>();
        if (baseline != null) {
            for (Baseline.Series s : LegacyKeys.remap(baseline, series.keySet(), warnings).series()) {
                base.put(s.key(), s);
            }
        }
        List<String> envDiff = baseline != null && environment != null && !allowEnvironmentMismatch
                ? baseline.environment().differences(environment) : List.of();

        Set<SeriesKey> keys = new LinkedHashSet<>(series.keySet());
        keys.addAll(seriesErrors.keySet());
        Set<String> names = new LinkedHashSet<>();
        keys.forEach(k -> names.add(k.name()));
        base.keySet().forEach(k -> names.add(k.name()));
        List<Policy> unmatched = policies.unmatched(names);
        if (!unmatched.isEmpty()) {
            warnings.add(new Problem(policies.fileName(), 0, "", "", (unmatched.size() == 1 ? "policy " : "policies ")
                    + String.join(", ", unmatched.stream().map(Policy::name).toList())
                    + " match" + (unmatched.size() == 1 ? "es" : "") + " no metric of the input or the baseline"));
        }
        for (SeriesKey key : keys) {
            out.add(judge(key, series.getOrDefault(key, List.of()), seriesErrors.get(key), base.get(key), current, envDiff,
                    warnings));
        }
        List<String> instead = new ArrayList<>();
        for (SeriesKey key : series.keySet()) {
            if (!base.containsKey(key)) {
                instead.add(key.display());
            }
        }
        for (Baseline.Series s : base.values()) {
            if (!keys.contains(s.key())) {
                Optional<SkippedTest> skipped = SkippedTest.owning(s.key(), current.skippedTests());
                out.add(skipped.isPresent() ? skip(s, skipped.get(), current) : missing(s, current, envDiff, instead));
            }
        }
        for (Problem p : loose) {
            out.add(Comparison.error(new SeriesKey("", p.where(), "input", null), "", null, p.message()));
        }
        if (baseline != null) {
            baseline.keyWarning(keys).ifPresent(warnings::add);
            NothingCompared.check(out, base.keySet(), series.keySet(), envDiff).ifPresent(out::add);
        }
        return new GateReport(out, warnings);
    }

    /**
     * @return the data points per side {@code p} needs to tell noise from change: its
     *     {@code min_runs}, and at least the smallest count with which the exact Mann-Whitney test
     *     can reach its alpha ({@value #RECOMMENDED_RUNS} at alpha 0.01)
     */
    public static int runsNeeded(Policy p) {
        return Math.max(p.minRuns(), MannWhitney.minRunsFor(p.alpha()));
    }

    private static void warnLowRuns(List<Problem> warnings, SeriesKey key, Policy p, Integer base, int cur) {
        int needed = runsNeeded(p);
        if ((base == null || base >= needed) && cur >= needed) {
            return;
        }
        String counts = base == null ? "cur " + cur : "base " + base + ", cur " + cur;
        warnings.add(new Problem(key.display(), 0, key.name(), key.host(), "low runs: " + counts + " data point"
                + (base == null && cur == 1 ? "" : "s") + "; " + needed + " per side are needed to tell noise from change"
                + " (alpha " + Fmt.num(p.alpha()) + ")"));
    }

    /**
     * The baseline of {@code current}, storing with each series the policy this gate judges it
     * with (file, embedded line, this gate's baseline, or default, with {@link #tolerance(Double)}
     * applied), so that a later compare without those policy lines judges it the same way.
     *
     * @param current what was read; callers should refuse to save when it has errors
     * @param env where it was measured
     * @param created when, written as RFC 3339 UTC
     * @return the baseline, of format version {@link Baseline#VERSION}
     */
    public Baseline baselineOf(MetricSet current, Environment env, Instant created) {
        Map<SeriesKey, Baseline.Series> base = new LinkedHashMap<>();
        if (baseline != null) {
            for (Baseline.Series s : baseline.series()) {
                base.put(s.key(), s);
            }
        }
        Baseline plain = Baseline.of(current, env, created);
        List<Baseline.Series> series = new ArrayList<>();
        for (Baseline.Series s : plain.series()) {
            Policy p = policyFor(s.key(), s.unit(), current, base.get(s.key())).orElse(null);
            series.add(new Baseline.Series(s.key(), s.unit(), s.runs(), p));
        }
        return new Baseline(Baseline.VERSION, plain.created(), env, series);
    }

    private Optional<Policy> policyFor(SeriesKey key, String unit, MetricSet current, Baseline.Series base) {
        Optional<Policy> p = policies.resolve(key.name(), unit, current.embeddedPolicies(), base == null ? null : base.policy());
        if (p.isPresent() && tolerance != null) {
            p = Optional.of(p.get().withRelativeTolerance(tolerance));
        }
        return p;
    }

    private Verdict skip(Baseline.Series s, SkippedTest t, MetricSet current) {
        Optional<Policy> op = policyFor(s.key(), s.unit(), current, s);
        boolean fail = op.isPresent() && op.get().onSkip() == Policy.OnSkip.FAIL;
        String reason = "skipped: " + (t.reason().isEmpty() ? "no reason given" : t.reason()) + " (test " + t.test()
                + " at " + (t.line() > 0 ? t.source() + ":" + t.line() : t.source()) + ")" + (fail ? "; on_skip: fail" : "");
        return Verdict.builder(s.key(), Verdict.Kind.SKIP, s.unit()).policy(op.orElse(null))
                .baselineRuns(s.runs().size()).failing(fail).reason(reason).build();
    }

    private Verdict missing(Baseline.Series s, MetricSet current, List<String> envDiff, List<String> instead) {
        Optional<Policy> op = policyFor(s.key(), s.unit(), current, s);
        String src = op.map(p -> p.source().label()).orElse("none");
        boolean skip = op.isPresent() && op.get().onMissing() == Policy.OnMissing.SKIP;
        if (!envDiff.isEmpty() && !skip) {
            return Verdict.builder(s.key(), Verdict.Kind.INCONCLUSIVE, s.unit()).policySource(src)
                    .reason("environment differs: " + String.join("; ", envDiff)).build();
        }
        return Verdict.builder(s.key(), Verdict.Kind.MISSING, s.unit()).policy(op.orElse(null)).policySource(src)
                .baselineRuns(s.runs().size()).failing(!skip)
                .reason("in the baseline, absent now" + (skip ? " (on_missing: skip)" : "") + producedInstead(instead))
                .build();
    }

    /** @return {@code ; this run produced instead: a, b} naming at most a few series, or empty */
    private static String producedInstead(List<String> instead) {
        if (instead.isEmpty()) {
            return "";
        }
        String named = String.join(", ", instead.subList(0, Math.min(NAMED_INSTEAD, instead.size())));
        int more = instead.size() - NAMED_INSTEAD;
        return "; this run produced instead: " + named + (more > 0 ? " and " + more + " more" : "");
    }

    private Verdict judge(SeriesKey key, List<Observation> obs, List<String> errors, Baseline.Series base,
                          MetricSet current, List<String> envDiff, List<Problem> warnings) {
        String unit = obs.isEmpty() ? (base == null ? "" : base.unit()) : obs.get(0).unit();
        Optional<Policy> op = policyFor(key, unit, current, base);
        if (errors != null) {
            return Comparison.error(key, unit, op.orElse(null), String.join("; ", errors));
        }
        if (op.isEmpty()) {
            return Comparison.error(key, unit, null, "no policy, direction unknown: " + key.name()
                    + (unit.isEmpty() ? " has no unit" : " in '" + unit + "'") + " and no word in its name means"
                    + " something bad (loss, lost, drop, error, retrans, jitter, latency, rtt, delay), nor is its"
                    + " unit a throughput (bit/s, B/s, frames/s, transactions/s), time or %; add a"
                    + " ktap-metric-policy-json line or a policy file entry");
        }
        Policy p = op.get();
        for (Observation o : obs) {
            if (!o.unit().equals(unit)) {
                return Comparison.error(key, unit, p, "unit changes within the series: '" + unit + "' at " + where(obs.get(0))
                        + ", '" + o.unit() + "' at " + where(o));
            }
        }
        Map<String, List<double[]>> runs = new LinkedHashMap<>();
        for (Observation o : obs) {
            runs.computeIfAbsent(o.run(), r -> new ArrayList<>()).add(new double[] {o.timeSeconds(), o.value()});
        }
        double[] cur = Summaries.data(p, runs);
        if (cur.length == 0) {
            return Comparison.error(key, unit, p, "no samples left after omit_first_s " + Fmt.num(p.omitFirstSeconds())
                    + " s and omit_last_s " + Fmt.num(p.omitLastSeconds()) + " s");
        }
        double c = p.compare().of(cur);
        if (base == null) {
            if (!p.reportOnly()) {
                warnLowRuns(warnings, key, p, null, cur.length);
            }
            return Verdict.builder(key, Verdict.Kind.PASS, unit).policy(p).current(c).currentRuns(cur.length)
                    .reason((baseline == null ? "no baseline" : "not in the baseline")
                            + (p.reportOnly() ? "; " + Comparison.REPORTED_ONLY : "")).build();
        }
        if (!base.unit().equals(unit)) {
            return Comparison.error(key, unit, p, "unit '" + unit + "' differs from the baseline's '" + base.unit() + "'");
        }
        double[] bs = Summaries.data(p, base.runs());
        if (bs.length == 0) {
            return Comparison.error(key, unit, p, "the baseline has no samples for this series after omitting");
        }
        double b = p.compare().of(bs);
        Double change = Comparison.relativeChange(b, c);
        if (p.reportOnly()) {
            return Comparison.reported(key, unit, p, b, c, change, bs.length, cur.length, envDiff);
        }
        warnLowRuns(warnings, key, p, bs.length, cur.length);
        if (!envDiff.isEmpty()) {
            return Comparison.verdict(key, Verdict.Kind.INCONCLUSIVE, unit, b, c, change, p, p.method(), null, bs.length, cur.length,
                    "environment differs: " + String.join("; ", envDiff));
        }
        if (bs.length < p.minRuns() || cur.length < p.minRuns()) {
            return Comparison.verdict(key, Verdict.Kind.INCONCLUSIVE, unit, b, c, change, p, p.method(), null, bs.length, cur.length,
                    String.format(Locale.ROOT, "insufficient runs (base %d, cur %d, min_runs %d)", bs.length, cur.length,
                            p.minRuns()));
        }
        return Comparison.decide(key, unit, p, b, c, change, bs, cur);
    }

    private static String where(Observation o) {
        return o.line() > 0 ? o.source() + ":" + o.line() : o.source();
    }
}
