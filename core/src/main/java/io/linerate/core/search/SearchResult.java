package io.linerate.core.search;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What a rate search found.
 *
 * @param spec the parameters asked for
 * @param minBitsPerSecond the lowest rate of the search range as used, bit/s (derived when the spec left it 0)
 * @param maxBitsPerSecond the highest rate of the search range as used, bit/s (derived when the spec left it 0)
 * @param trials every trial, in order, calibration first when there was one
 * @param found the highest offered rate whose load passed and was confirmed by {@link SearchSpec#confirm()}
 *     judgements in a row, bit/s; empty when even the min rate failed its confirm judgements. What
 *     its trials carried is {@link #carriedBitsPerSecond()}
 * @param upperBitsPerSecond the lowest rate known to fail (or the max rate, when none failed) at the end, bit/s
 * @param converged whether the search interval got within the resolution; false when it stopped
 *     after {@link SearchSpec#maxTrials()} bisection trials
 * @param notes what happened that a reader should know: a non-monotonic curve, a stop at max trials,
 *     failed trials outvoted at a load
 * @param loads every judgement of a load, in order, with how many trials it took; the calibration
 *     trial is in none
 */
public record SearchResult(SearchSpec spec, long minBitsPerSecond, long maxBitsPerSecond, List<SearchTrial> trials,
                           OptionalLong found, long upperBitsPerSecond, boolean converged, List<String> notes,
                           List<LoadJudgement> loads) {
    /** Copies the lists. */
    public SearchResult {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(found, "found");
        trials = List.copyOf(trials);
        notes = List.copyOf(notes);
        loads = List.copyOf(loads);
    }

    /**
     * A result whose every search and confirm trial was a judgement of its own, as in the
     * {@linkplain SearchSpec#strict() strict} search.
     */
    public SearchResult(SearchSpec spec, long minBitsPerSecond, long maxBitsPerSecond, List<SearchTrial> trials,
                        OptionalLong found, long upperBitsPerSecond, boolean converged, List<String> notes) {
        this(spec, minBitsPerSecond, maxBitsPerSecond, trials, found, upperBitsPerSecond, converged, notes, oneEach(trials));
    }

    private static List<LoadJudgement> oneEach(List<SearchTrial> trials) {
        List<LoadJudgement> out = new ArrayList<>();
        for (SearchTrial t : trials) {
            if (t.phase() != SearchTrial.Phase.CALIBRATION) {
                out.add(new LoadJudgement(out.size() + 1, t.phase(), t.outcome().offeredBitsPerSecond(), t.number(), 1,
                        t.passed() ? 0 : 1, t.passed()));
            }
        }
        return out;
    }

    /**
     * The rate the found load was carried at, the search's result: the lowest achieved rate among
     * the passing trials at the found rate (search and confirm), and no more than the found rate
     * itself. A trial passes while its sender falls short of the offered rate by no more than the
     * allowed shortfall (the resolution plus one message per trial window), as a sender throttled
     * by a shaped link does just above the link's rate; what it carried is this, not the offered
     * rate, and metrics report this.
     *
     * @return bit/s; empty when nothing was found
     */
    public OptionalDouble carriedBitsPerSecond() {
        if (found.isEmpty()) {
            return OptionalDouble.empty();
        }
        long f = found.getAsLong();
        OptionalDouble low = trials.stream().filter(t -> t.phase() != SearchTrial.Phase.CALIBRATION && t.passed()
                        && t.outcome().offeredBitsPerSecond() == f)
                .mapToDouble(t -> t.outcome().achievedBitsPerSecond()).min();
        return low.isPresent() ? OptionalDouble.of(Math.min(low.getAsDouble(), f)) : low;
    }

    /** @return the load judgement that trial {@code number} belongs to; empty for the calibration trial */
    public java.util.Optional<LoadJudgement> loadOf(int number) {
        return loads.stream().filter(l -> number >= l.firstTrial() && number <= l.lastTrial()).findFirst();
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

    /**
     * @return the kind as metric names carry it: {@link #kind()} for the robust search (the
     *     default), {@code ndr_strict} or {@code pdr_strict} for the strict one, so that results of the
     *     two searches are never one series
     */
    public String seriesKind() {
        return spec.strict() ? kind() + "_strict" : kind();
    }

    /** @return trials of the search and confirm phases, over all their loads */
    public long judgedTrials() {
        return trials.stream().filter(t -> t.phase() != SearchTrial.Phase.CALIBRATION).count();
    }
}
