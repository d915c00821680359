package io.linerate.core.search;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outputs of a {@link LossSweepResult}: the steps table, the closing line, the metrics and the
 * JSON. Numbers use {@link Locale#ROOT}; rates print in Mbit/s (10^6 bit/s) with three decimals,
 * JSON carries them in bit/s.
 */
public final class LossSweepFormat {
    /** Header of the steps table. */
    public static final String TABLE_HEADER = String.format(Locale.ROOT, "%5s %-11s %11s %14s %14s %12s %12s %10s %9s",
            "step", "phase", "offered_pct", "offered_Mbps", "achieved_Mbps", "sent", "received", "lost", "loss_pct");
    /** The {@code search} value of the sweep's JSON, which tells it apart from a rate search's. */
    public static final String KIND = "loss-sweep";

    private LossSweepFormat() {}

    /** @return the table's header, the calibration trial when there was one, and one line per step */
    public static List<String> table(LossSweepResult r) {
        List<String> out = new ArrayList<>();
        out.add(TABLE_HEADER);
        r.calibration().ifPresent(o -> out.add(row(0, "calibration", "-", o)));
        for (SweepStep s : r.steps()) {
            out.add(row(s.number(), "step", Integer.toString(s.offeredPercent()), s.outcome()));
        }
        return out;
    }

    private static String row(int n, String phase, String pct, TrialOutcome o) {
        return String.format(Locale.ROOT, "%5d %-11s %11s %14s %14.3f %12d %12d %10d %9s", n, phase, pct,
                o.offeredBitsPerSecond() == 0 ? "unlimited" : String.format(Locale.ROOT, "%.3f", o.offeredBitsPerSecond() / 1e6),
                o.achievedBitsPerSecond() / 1e6, o.sent(), o.received(), o.lost(),
                o.sent() == 0 ? "-" : String.format(Locale.ROOT, "%.4f", o.lossPercent()));
    }

    /** @return how the sweep ended: after two loss-free steps, or at the lowest step with loss */
    public static String endLine(LossSweepResult r) {
        SweepStep last = r.steps().get(r.steps().size() - 1);
        return String.format(Locale.ROOT, "frame loss rate test (RFC 2544 section 26.3): %d steps of %d%% from %.3f Mbit/s%s; %s",
                r.steps().size(), LossSweep.STEP_PERCENT, r.maxBitsPerSecond() / 1e6,
                r.maxFromCalibration() ? " (max from an unlimited trial)" : "",
                r.endedLossFree() ? String.format(Locale.ROOT, "ended after %d successive loss-free steps, the last at %d%%",
                        LossSweep.LOSS_FREE_STEPS_TO_STOP, last.offeredPercent())
                        : String.format(Locale.ROOT, "reached the %d%% step without %d successive loss-free steps",
                                LossSweep.LOWEST_PERCENT, LossSweep.LOSS_FREE_STEPS_TO_STOP));
    }

    /** @return {@code <marker>_sweep_loss_pct} */
    public static String metricName(String marker) {
        return marker + "_sweep_loss_pct";
    }

    /**
     * @param marker the transfer's marker, such as {@code udp4}
     * @param timeSeconds the metrics' time, seconds since the run started
     * @return one {@code <marker>_sweep_loss_pct} per step that sent something, in percent, lower-better,
     *     labelled {@code offered_pct} with the step's percentage, so that each step is a series of its own
     */
    public static List<Metric> metrics(LossSweepResult r, String marker, double timeSeconds) {
        List<Metric> out = new ArrayList<>();
        for (SweepStep s : r.steps()) {
            if (s.outcome().sent() > 0) {
                out.add(new Metric(metricName(marker), s.outcome().lossPercent(), "%", Metric.LOCAL, timeSeconds,
                        Map.of("offered_pct", Integer.toString(s.offeredPercent())), Better.LOWER));
            }
        }
        return out;
    }

    /**
     * @param r the sweep
     * @param marker the transfer's marker
     * @param spec the trial length, warm-up and interval each step used
     * @return the whole sweep as one JSON object: {@code "search":"loss-sweep"}, rates in bit/s, and
     *     {@code trials} (phase {@code calibration} or {@code step}) in the shape of a rate search's rows
     */
    public static JsonObject json(LossSweepResult r, String marker, SearchSpec spec) {
        JsonObject j = JsonObject.create()
                .put("marker", marker)
                .put("search", KIND)
                .put("step_pct", LossSweep.STEP_PERCENT)
                .put("trial_s", spec.trial().toNanos() / 1e9)
                .put("warmup_s", spec.warmup().toNanos() / 1e9)
                .put("interval_s", spec.interval().toNanos() / 1e9)
                .put("rfc2544_trial_duration", spec.trial().compareTo(SearchSpec.RFC2544_TRIAL) >= 0)
                .put("max_bps", r.maxBitsPerSecond())
                .put("max_source", r.maxFromCalibration() ? "unlimited trial" : "given")
                .put("ended_loss_free", r.endedLossFree())
                .putStrings("notes", r.notes());
        List<JsonObject> rows = new ArrayList<>();
        r.calibration().ifPresent(o -> rows.add(row(0, "calibration", o).putNull("offered_pct").put("loss_free", false)));
        for (SweepStep s : r.steps()) {
            rows.add(row(s.number(), "step", s.outcome()).put("offered_pct", s.offeredPercent()).put("loss_free", s.lossFree()));
        }
        return j.putObjects("trials", rows);
    }

    private static JsonObject row(int n, String phase, TrialOutcome o) {
        JsonObject row = JsonObject.create().put("trial", n).put("phase", phase)
                .put("offered_bps", o.offeredBitsPerSecond()).put("achieved_bps", o.achievedBitsPerSecond())
                .put("sent", o.sent()).put("received", o.received()).put("lost", o.lost());
        return o.sent() == 0 ? row.putNull("loss_pct") : row.put("loss_pct", o.lossPercent());
    }
}
