package io.linerate.core.search;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * Loss against offered load over the trials of a rate search or a loss sweep: what a chart of
 * either draws, built from the result or read back from its JSON ({@link SearchFormat#json},
 * {@link LossSweepFormat#json}).
 *
 * @param marker the transfer's marker, such as {@code udp4}
 * @param kind {@code ndr} or {@code pdr} for a rate search, {@value LossSweepFormat#KIND} for a loss sweep
 * @param maxBitsPerSecond the highest rate of the search range or the sweep's 100 % step, bit/s
 * @param found the rate the search found and confirmed, bit/s; empty for a sweep or a search that found nothing
 * @param points every trial, in the order it ran
 */
public record LossCurve(String marker, String kind, long maxBitsPerSecond, OptionalLong found, List<Point> points) {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /**
     * One trial.
     *
     * @param number the trial's number as its table prints it (0 for a sweep's calibration trial)
     * @param phase {@code calibration}, {@code search}, {@code confirm} or {@code step}
     * @param offeredBitsPerSecond the offered rate, bit/s; 0 for the unlimited calibration trial
     * @param achievedBitsPerSecond the rate the sender achieved, bit/s
     * @param lossPercent lost as a percentage of sent, 0..100 (100 when nothing was sent)
     * @param passed whether the trial passed (search) or lost nothing (sweep); false for a calibration trial
     */
    public record Point(int number, String phase, long offeredBitsPerSecond, double achievedBitsPerSecond,
                        double lossPercent, boolean passed) {
        /** @throws IllegalArgumentException for a negative rate or a loss outside 0..100 */
        public Point {
            Objects.requireNonNull(phase, "phase");
            if (offeredBitsPerSecond < 0 || !(achievedBitsPerSecond >= 0) || !(lossPercent >= 0 && lossPercent <= 100)) {
                throw new IllegalArgumentException("trial " + number + " has offered " + offeredBitsPerSecond
                        + " bit/s, achieved " + achievedBitsPerSecond + " bit/s, loss " + lossPercent
                        + "%; allowed: rates of 0 or more and a loss of 0..100%");
            }
        }

        /** @return whether this is the unlimited-rate trial that set the max rate */
        public boolean calibration() {
            return offeredBitsPerSecond == 0;
        }

        /** @return where the trial sits on the load axis, bit/s: the offered rate, or the achieved one for the unlimited trial */
        public double loadBitsPerSecond() {
            return calibration() ? achievedBitsPerSecond : offeredBitsPerSecond;
        }
    }

    /** Copies the list. */
    public LossCurve {
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(found, "found");
        points = List.copyOf(points);
    }

    /** @return whether this is a loss sweep (RFC 2544 section 26.3) rather than a rate search */
    public boolean sweep() {
        return LossSweepFormat.KIND.equals(kind);
    }

    /** @return the curve of a rate search */
    public static LossCurve of(SearchResult r, String marker) {
        List<Point> ps = new ArrayList<>();
        for (SearchTrial t : r.trials()) {
            TrialOutcome o = t.outcome();
            ps.add(new Point(t.number(), t.phase().label(), o.offeredBitsPerSecond(), o.achievedBitsPerSecond(),
                    o.lossPercent(), t.passed()));
        }
        return new LossCurve(marker, r.kind(), r.maxBitsPerSecond(), r.found(), ps);
    }

    /** @return the curve of a loss sweep */
    public static LossCurve of(LossSweepResult r, String marker) {
        List<Point> ps = new ArrayList<>();
        r.calibration().ifPresent(o -> ps.add(new Point(0, "calibration", o.offeredBitsPerSecond(),
                o.achievedBitsPerSecond(), o.lossPercent(), false)));
        for (SweepStep s : r.steps()) {
            TrialOutcome o = s.outcome();
            ps.add(new Point(s.number(), "step", o.offeredBitsPerSecond(), o.achievedBitsPerSecond(), o.lossPercent(),
                    s.lossFree()));
        }
        return new LossCurve(marker, LossSweepFormat.KIND, r.maxBitsPerSecond(), OptionalLong.empty(), ps);
    }

    /**
     * Reads the JSON of {@code search --json} or {@code search --loss-sweep --json}.
     *
     * @param json one JSON object
     * @return the curve
     * @throws IllegalArgumentException when the text is not JSON or lacks a field the chart needs, naming it
     */
    public static LossCurve fromJson(String json) {
        JsonNode n;
        try {
            n = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("not a JSON object; expected the output of search --json");
        }
        String kind = text(n, "search");
        boolean sweep = LossSweepFormat.KIND.equals(kind);
        if (!sweep && !"ndr".equals(kind) && !"pdr".equals(kind)) {
            throw new IllegalArgumentException("field 'search' is '" + kind + "'; allowed: ndr, pdr, " + LossSweepFormat.KIND);
        }
        JsonNode rows = n.get("trials");
        if (rows == null || !rows.isArray()) {
            throw new IllegalArgumentException("field 'trials' is missing or not an array; expected the output of search --json");
        }
        List<Point> ps = new ArrayList<>();
        for (JsonNode row : rows) {
            JsonNode loss = row.get("loss_pct");
            boolean passed = sweep ? row.path("loss_free").asBoolean(false) : "pass".equals(row.path("verdict").asText());
            ps.add(new Point(number(row, "trial").intValue(), text(row, "phase"), number(row, "offered_bps").longValue(),
                    number(row, "achieved_bps").doubleValue(),
                    loss == null || loss.isNull() ? 100.0 : number(row, "loss_pct").doubleValue(), passed));
        }
        JsonNode found = n.get("found_bps");
        return new LossCurve(text(n, "marker"), kind, number(n, "max_bps").longValue(),
                found == null || found.isNull() ? OptionalLong.empty() : OptionalLong.of(number(n, "found_bps").longValue()), ps);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("field '" + field + "' is missing or not a string");
        }
        return v.asText();
    }

    private static Number number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isNumber()) {
            throw new IllegalArgumentException("field '" + field + "' is missing or not a number");
        }
        return v.numberValue();
    }

    /** @return {@code NDR}, {@code PDR} or {@code loss sweep}, as a chart's label names it */
    public String label() {
        return sweep() ? "loss sweep" : kind.toUpperCase(Locale.ROOT);
    }
}
