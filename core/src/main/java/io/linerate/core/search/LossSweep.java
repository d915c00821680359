package io.linerate.core.search;

import io.linerate.core.TransferException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * RFC 2544's frame loss rate test (section 26.3): trials at 100 % of the maximum rate, then at
 * 90 %, 80 %, ... of it, until two successive trials lose nothing. Each step reports its offered
 * rate and its loss, {@code (sent − received) × 100 / sent} percent (the RFC's
 * {@code ((input_count − output_count) × 100) / input_count}).
 *
 * <ol>
 * <li>Max rate. A given max (bit/s) is the 100 % step. With 0, one trial at unlimited rate runs
 * first and what it achieved, rounded down to whole bit/s, is the max, as in {@link RateSearch}.</li>
 * <li>Steps. Step {@code k} (from 0) offers {@code ⌊max × (100 − 10k) / 100⌋} bit/s. The sweep stops
 * after the second of two successive steps that sent something and lost nothing, or after the
 * {@value #LOWEST_PERCENT} % step (a 0 % step offers nothing), so it runs at most ten steps; a
 * sweep that stops there without two loss-free steps says so in a note.</li>
 * </ol>
 * A step's loss is its result, never a failure of the test.
 */
public final class LossSweep {
    /** The decrement between steps, percent of the max rate: 10, as RFC 2544 section 26.3 asks. */
    public static final int STEP_PERCENT = 10;
    /** The lowest step, percent of the max rate. */
    public static final int LOWEST_PERCENT = STEP_PERCENT;
    /** Successive loss-free steps that end the sweep: 2. */
    public static final int LOSS_FREE_STEPS_TO_STOP = 2;

    private LossSweep() {}

    /**
     * Runs a sweep.
     *
     * @param maxBitsPerSecond the rate of the 100 % step, bit/s; 0 for what an unlimited trial achieves
     * @param trial runs one trial at a given offered rate
     * @return the steps
     * @throws IllegalArgumentException for a negative max, or a max below 10 bit/s (its 10 % step would offer nothing)
     * @throws TransferException when a trial cannot be run, or the unlimited trial achieved less than 10 bit/s
     */
    public static LossSweepResult run(long maxBitsPerSecond, Trial trial) throws TransferException {
        Objects.requireNonNull(trial, "trial");
        if (maxBitsPerSecond < 0 || (maxBitsPerSecond > 0 && maxBitsPerSecond < 100 / LOWEST_PERCENT)) {
            throw new IllegalArgumentException("max rate " + maxBitsPerSecond + " bit/s is out of range for a loss "
                    + "sweep; allowed: 0 (what an unlimited trial achieves) or " + 100 / LOWEST_PERCENT + " bit/s or more");
        }
        Optional<TrialOutcome> calibration = Optional.empty();
        long max = maxBitsPerSecond;
        if (max == 0) {
            TrialOutcome o = trial.run(0);
            calibration = Optional.of(o);
            max = (long) Math.floor(o.achievedBitsPerSecond());
            if (max < 100 / LOWEST_PERCENT) {
                throw new TransferException("the unlimited-rate trial that sets the max rate achieved "
                        + o.achievedBitsPerSecond() + " bit/s (sent " + o.sent() + "); nothing to sweep below it; give "
                        + "--max-rate", null);
            }
        }
        List<SweepStep> steps = new ArrayList<>();
        int lossFreeRun = 0;
        for (int pct = 100; pct >= LOWEST_PERCENT && lossFreeRun < LOSS_FREE_STEPS_TO_STOP; pct -= STEP_PERCENT) {
            long rate = rateAt(max, pct);
            SweepStep s = new SweepStep(steps.size() + 1, pct, trial.run(rate));
            steps.add(s);
            lossFreeRun = s.lossFree() ? lossFreeRun + 1 : 0;
        }
        boolean ended = lossFreeRun >= LOSS_FREE_STEPS_TO_STOP;
        List<String> notes = new ArrayList<>();
        if (!ended) {
            notes.add(String.format(Locale.ROOT, "the %d%% step (%d bit/s) was reached without %d successive loss-free "
                    + "steps: there is loss down to the lowest step", LOWEST_PERCENT, rateAt(max, LOWEST_PERCENT),
                    LOSS_FREE_STEPS_TO_STOP));
        }
        return new LossSweepResult(max, calibration, steps, ended, notes);
    }

    /**
     * @param maxBitsPerSecond 0 or more
     * @param percent 0..100
     * @return {@code ⌊max × percent / 100⌋}, the offered rate of a step, bit/s, without overflow: with
     *     {@code max = 100q + r} it is {@code q × percent + ⌊r × percent / 100⌋}
     */
    public static long rateAt(long maxBitsPerSecond, int percent) {
        return maxBitsPerSecond / 100 * percent + maxBitsPerSecond % 100 * percent / 100;
    }
}
