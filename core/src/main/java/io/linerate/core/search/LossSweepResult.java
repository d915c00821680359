package io.linerate.core.search;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a frame loss rate test ({@link LossSweep}, RFC 2544 section 26.3) measured.
 *
 * @param maxBitsPerSecond the rate of the 100 % step, bit/s: given, or what the calibration trial achieved
 * @param calibration the unlimited-rate trial that set the max rate; empty when the max was given
 * @param steps every step, in order: 100 %, 90 %, ... of the max rate
 * @param endedLossFree whether the sweep stopped because two successive steps lost nothing (RFC 2544's
 *     end); false when it reached the lowest step, {@value LossSweep#LOWEST_PERCENT} %, with loss in
 *     one of the last two
 * @param notes what a reader should know, such as a sweep that never lost nothing twice
 */
public record LossSweepResult(long maxBitsPerSecond, Optional<TrialOutcome> calibration, List<SweepStep> steps,
                              boolean endedLossFree, List<String> notes) {
    /** Copies the lists. */
    public LossSweepResult {
        Objects.requireNonNull(calibration, "calibration");
        steps = List.copyOf(steps);
        notes = List.copyOf(notes);
    }

    /** @return whether the max rate came from an unlimited-rate trial rather than from the caller */
    public boolean maxFromCalibration() {
        return calibration.isPresent();
    }
}
