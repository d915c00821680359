package io.linerate.core.search;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The outputs of a {@link SearchResult}: the trials table, the found-rate line, the note on the
 * trial duration, the metrics and the JSON. Numbers are formatted with {@link Locale#ROOT}; rates
 * print in Mbit/s (10^6 bit/s) with three decimals, JSON carries them in bit/s as well.
 */
public final class SearchFormat {
    /** Header of the trials table. */
    public static final String TABLE_HEADER = String.format(Locale.ROOT, "%5s %4s %-11s %14s %14s %12s %12s %10s %9s  %s",
            "trial", "load", "phase", "offered_Mbps", "achieved_Mbps", "sent", "received", "lost", "loss_pct", "verdict");

    private SearchFormat() {}

    /**
     * @return the table's header and one line per trial; {@code load} is the number of the load
     *     judgement the trial belongs to ({@code -} for the calibration trial), and the last trial of
     *     each judgement of more than one trial adds the load's verdict, such as
     *     {@code pass; load pass, 1 of 3 trials failed}
     */
    public static List<String> table(SearchResult r) {
        List<String> out = new ArrayList<>();
        out.add(TABLE_HEADER);
        for (SearchTrial t : r.trials()) {
            TrialOutcome o = t.outcome();
            java.util.Optional<LoadJudgement> load = r.loadOf(t.number());
            String verdict = t.verdict().label() + load.filter(l -> l.trials() > 1 && l.lastTrial() == t.number())
                    .map(l -> String.format(Locale.ROOT, "; load %s, %d of %d trials failed", l.verdictLabel(), l.failed(),
                            l.trials())).orElse("");
            out.add(String.format(Locale.ROOT, "%5d %4s %-11s %14s %14.3f %12d %12d %10d %9s  %s", t.number(),
                    load.map(l -> Integer.toString(l.number())).orElse("-"), t.phase().label(),
                    o.offeredBitsPerSecond() == 0 ? "unlimited" : String.format(Locale.ROOT, "%.3f", o.offeredBitsPerSecond() / 1e6),
                    o.achievedBitsPerSecond() / 1e6, o.sent(), o.received(), o.lost(),
                    o.sent() == 0 ? "-" : String.format(Locale.ROOT, "%.4f", o.lossPercent()), verdict));
        }
        return out;
    }

    /**
     * @return {@code trials of 2.000 s each (warm-up of 0.250 s left out of each); RFC 2544 asks for 60 s}
     *     or, for 60 s or more, that the trials are RFC 2544's
     */
    public static String trialDurationLine(SearchResult r) {
        SearchSpec s = r.spec();
        boolean rfc = s.trial().compareTo(SearchSpec.RFC2544_TRIAL) >= 0;
        return String.format(Locale.ROOT, "trials of %.3f s each, warm-up of %.3f s left out of each, interval %.3f s: %s",
                s.trial().toNanos() / 1e9, s.warmup().toNanos() / 1e9, s.interval().toNanos() / 1e9,
                rfc ? "RFC 2544's 60 s or more" : "shorter than the 60 s RFC 2544 section 26.1 asks for");
    }

    /**
     * @return why a search found nothing, short, for a failed test's reason: {@code even the min rate lost},
     *     or {@code even the min rate failed: the sender could not offer it} when its last trial fell short
     */
    public static String failReason(SearchResult r) {
        boolean shortfall = !r.trials().isEmpty()
                && r.trials().get(r.trials().size() - 1).verdict() == SearchTrial.Verdict.SHORTFALL;
        return shortfall ? "even the min rate failed: the sender could not offer it" : "even the min rate lost";
    }

    /**
     * @return {@code NDR 194.071 Mbit/s carried at an offered 194.075 Mbit/s (...)}, naming the
     *     rate the found load's trials carried ({@link SearchResult#carriedBitsPerSecond()}), the
     *     search's mode and the trials it took; or the line saying even the min rate lost
     */
    public static String foundLine(SearchResult r) {
        String kind = r.kind().toUpperCase(Locale.ROOT);
        String tol = tolerance(r.spec());
        if (r.found().isEmpty()) {
            SearchTrial last = r.trials().get(r.trials().size() - 1);
            String why = switch (last.verdict()) {
                case SHORTFALL -> String.format(Locale.ROOT, "the sender could not offer it (achieved %.3f Mbit/s, short "
                        + "by more than the allowed %.3f Mbit/s); a lower --min-rate lets the search start where it can",
                        last.outcome().achievedBitsPerSecond() / 1e6, last.allowedShortfallBitsPerSecond() / 1e6);
                case NOTHING_SENT -> "nothing was sent";
                case INVALID -> "it was not valid: " + String.join("; ", last.outcome().validityFailures());
                default -> "more than " + tol + "% of what was sent was lost";
            };
            return String.format(Locale.ROOT, "%s not found: even the min rate %.3f Mbit/s failed its confirm %s: %s",
                    kind, r.minBitsPerSecond() / 1e6, r.spec().strict() ? "trial" : "judgement", why);
        }
        String upper = r.upperFailed()
                ? String.format(Locale.ROOT, "lowest failing rate %.3f Mbit/s", r.upperBitsPerSecond() / 1e6)
                : "no trial failed; the max rate itself is not tried";
        SearchSpec s = r.spec();
        return String.format(Locale.ROOT, "%s %.3f Mbit/s carried at an offered %.3f Mbit/s (loss tolerance %s%%, %s; "
                        + "confirmed by %d %s%s; range %.3f..%.3f Mbit/s%s; %s; %s)",
                kind, reported(r) / 1e6, r.found().getAsLong() / 1e6, tol, modeText(r), s.confirm(),
                s.strict() ? "trial" : "judgement", s.confirm() == 1 ? "" : "s",
                r.minBitsPerSecond() / 1e6, r.maxBitsPerSecond() / 1e6,
                r.maxFromCalibration() ? ", max from an unlimited trial" : "", upper,
                r.converged() ? "within the resolution of " + r.spec().resolution() : "NOT within the resolution: max trials reached");
    }

    /**
     * @return {@code strict (RFC 2544): 1 trial per load, 12 trials} or {@code robust (MLRsearch): a load
     *     fails when 2 of up to 3 trials fail, 14 loads in 30 trials}
     */
    public static String modeText(SearchResult r) {
        SearchSpec s = r.spec();
        long judged = r.judgedTrials();
        if (s.strict()) {
            return String.format(Locale.ROOT, "strict (RFC 2544): 1 trial per load, %d trial%s", judged, judged == 1 ? "" : "s");
        }
        return String.format(Locale.ROOT, "robust (MLRsearch): a load fails when %d of up to %d trials fail, %d loads in %d "
                + "trials", s.failuresToFail(), s.trialsPerLoad(), r.loads().size(), judged);
    }

    /** @return the carried rate, bit/s; the found (offered) rate for a result that holds no trial at it */
    private static double reported(SearchResult r) {
        return r.carriedBitsPerSecond().orElse(r.found().getAsLong());
    }

    /**
     * @return {@code <marker>_ndr_mbps} or {@code <marker>_pdr_mbps}; {@code <marker>_ndr_strict_mbps}
     *     (or {@code _pdr_strict_}) for the strict search ({@link SearchResult#seriesKind()})
     */
    public static String metricName(SearchResult r, String marker) {
        return marker + "_" + r.seriesKind() + "_mbps";
    }

    /**
     * @param marker the transfer's marker, such as {@code udp4}
     * @param timeSeconds the metric's time, seconds since the run started
     * @return {@code <marker>_ndr_mbps} (or {@code _pdr_mbps}) in Mbit/s, higher-better: the rate
     *     the found load's trials carried ({@link SearchResult#carriedBitsPerSecond()}); none when
     *     nothing was found (a rate of 0 would read as a measurement)
     */
    public static List<Metric> metrics(SearchResult r, String marker, double timeSeconds) {
        if (r.found().isEmpty()) {
            return List.of();
        }
        return List.of(Metric.of(metricName(r, marker), reported(r) / 1e6, "Mbit/s", timeSeconds, Better.HIGHER));
    }

    /**
     * @return the whole result as one JSON object; rates in bit/s, {@code found_bps} (the offered
     *     load that passed) and {@code carried_bps} (what its trials carried) null when nothing was
     *     found; {@code mode} ({@code strict} or {@code robust}) and {@code trials_per_load}; one row per
     *     load judgement in {@code loads}, and each trial's {@code load}
     */
    public static JsonObject json(SearchResult r, String marker) {
        SearchSpec s = r.spec();
        JsonObject j = JsonObject.create()
                .put("marker", marker)
                .put("search", r.kind())
                .put("loss_tolerance_pct", s.lossTolerancePercent())
                .put("trial_s", s.trial().toNanos() / 1e9)
                .put("warmup_s", s.warmup().toNanos() / 1e9)
                .put("interval_s", s.interval().toNanos() / 1e9)
                .put("rfc2544_trial_duration", s.trial().compareTo(SearchSpec.RFC2544_TRIAL) >= 0)
                .put("min_bps", r.minBitsPerSecond())
                .put("max_bps", r.maxBitsPerSecond())
                .put("max_source", r.maxFromCalibration() ? "unlimited trial" : "given")
                .put("resolution", s.resolution().toString())
                .put("max_trials", s.maxTrials())
                .put("confirm", s.confirm())
                .put("mode", s.mode())
                .put("trials_per_load", s.trialsPerLoad())
                .put("converged", r.converged())
                .put("confirmed", r.confirmed());
        if (r.found().isPresent()) {
            j.put("found_bps", r.found().getAsLong()).put("found_mbps", r.found().getAsLong() / 1e6)
                    .put("carried_bps", reported(r)).put("carried_mbps", reported(r) / 1e6);
        } else {
            j.putNull("found_bps").putNull("found_mbps").putNull("carried_bps").putNull("carried_mbps");
        }
        j.put("upper_bps", r.upperBitsPerSecond()).put("upper_failed", r.upperFailed()).putStrings("notes", r.notes());
        List<JsonObject> rows = new ArrayList<>();
        for (SearchTrial t : r.trials()) {
            TrialOutcome o = t.outcome();
            JsonObject row = JsonObject.create().put("trial", t.number());
            r.loadOf(t.number()).ifPresent(l -> row.put("load", l.number()));
            row.put("phase", t.phase().label())
                    .put("offered_bps", o.offeredBitsPerSecond()).put("achieved_bps", o.achievedBitsPerSecond())
                    .put("sent", o.sent()).put("received", o.received()).put("lost", o.lost());
            if (o.sent() == 0) {
                row.putNull("loss_pct");
            } else {
                row.put("loss_pct", o.lossPercent());
            }
            if (!o.validityFailures().isEmpty()) {
                row.putStrings("validity_failures", o.validityFailures());
            }
            rows.add(row.put("allowed_shortfall_bps", t.allowedShortfallBitsPerSecond()).put("verdict", t.verdict().label()));
        }
        List<JsonObject> loads = new ArrayList<>();
        for (LoadJudgement l : r.loads()) {
            loads.add(JsonObject.create().put("load", l.number()).put("phase", l.phase().label())
                    .put("offered_bps", l.offeredBitsPerSecond()).put("first_trial", l.firstTrial()).put("trials", l.trials())
                    .put("failed", l.failed()).put("verdict", l.verdictLabel()));
        }
        return j.putObjects("trials", rows).putObjects("loads", loads);
    }

    private static String tolerance(SearchSpec s) {
        return java.math.BigDecimal.valueOf(s.lossTolerancePercent()).stripTrailingZeros().toPlainString();
    }
}
