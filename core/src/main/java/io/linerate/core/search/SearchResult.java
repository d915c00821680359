package io.linerate.core.search;

import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * What a rate search found.
 *
 * @param spec the parameters asked for
 * @param minBitsPerSecond the lowest rate of the search range as used, bit/s (derived when the spec left it 0)
 * @param maxBitsPerSecond the highest rate of the search range as used, bit/s (derived when the spec left it 0)
 * @param trials every trial, in order, calibration first when there was one
 * @param found the highest rate that passed and was confirmed by {@link SearchSpec#confirm()}
 *     trials in a row, bit/s; empty when even the min rate failed its confirm trials
 * @param upperBitsPerSecond the lowest rate known to fail (or the max rate, when none failed) at the end, bit/s
 * @param converged whether the search interval got within the resolution; false when it stopped
 *     after {@link SearchSpec#maxTrials()} bisection trials
 * @param notes what happened that a reader should know: a non-monotonic curve, a stop at max trials
 */
public record SearchResult(SearchSpec spec, long minBitsPerSecond, long maxBitsPerSecond, List<SearchTrial> trials,
                           OptionalLong found, long upperBitsPerSecond, boolean converged, List<String> notes) {
    /** Copies the lists. */
    public SearchResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(found, "found");
        trials = List.copyOf(trials);
        notes = List.copyOf(notes);
    }

    /** @return whether a rate was found and confirmed; false when even the min rate lost */
    public boolean confirmed() {
        return found.isPresent();
    }

    /** @return whether the max rate came from an unlimited-rate trial rather than from the spec */
    public boolean maxFromCalibration() {
        return spec.maxBitsPerSecond() == 0;
    }

    /**
     * @return whether a search or confirm trial at {@link #upperBitsPerSecond()} failed; false when
     *     the upper bound is the max rate that no trial offered (every bisection trial passed)
     */
    public boolean upperFailed() {
        return trials.stream().anyMatch(t -> t.phase() != SearchTrial.Phase.CALIBRATION
                && t.outcome().offeredBitsPerSecond() == upperBitsPerSecond && t.verdict() != SearchTrial.Verdict.PASS);
    }

    /** @return {@code ndr} for a tolerance of 0, {@code pdr} otherwise */
    public String kind() {
        return spec.ndr() ? "ndr" : "pdr";
    }

    /** @return trials of the search and confirm phases: those {@link SearchSpec#maxTrials()} and confirm count */
    public long judgedTrials() {
        return trials.stream().filter(t -> t.phase() != SearchTrial.Phase.CALIBRATION).count();
    }
}
