package io.linerate.core.search;

import java.util.Objects;

/**
 * One step of a frame loss rate test ({@link LossSweep}): a trial at a percentage of the maximum rate.
 *
 * @param number 1, 2, ... in the order the steps ran
 * @param offeredPercent the step's share of the maximum rate, percent: 100, 90, 80, ... 10
 * @param outcome what the trial counted; its offered rate is {@code ⌊max × offeredPercent / 100⌋} bit/s
 */
public record SweepStep(int number, int offeredPercent, TrialOutcome outcome) {
    /** @throws IllegalArgumentException for a number below 1 or a percentage outside 1..100 */
    public SweepStep {
        Objects.requireNonNull(outcome, "outcome");
        if (number < 1 || offeredPercent < 1 || offeredPercent > 100) {
            throw new IllegalArgumentException("sweep step " + number + " at " + offeredPercent
                    + "% is out of range; allowed: step 1 or more at 1..100%");
        }
    }

    /** @return whether the step sent something and lost none of it */
    public boolean lossFree() {
        return outcome.sent() > 0 && outcome.lost() == 0;
    }
}
