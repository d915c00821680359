package io.linerate.core.search;

import java.util.Locale;
import java.util.Objects;

/**
 * One row of a search's trials table: a trial, why it ran and its verdict.
 *
 * @param number 1, 2, ... in the order the trials ran
 * @param phase why it ran
 * @param outcome what it counted
 * @param allowedShortfallBitsPerSecond how far the achieved rate could fall below the offered one
 *     and still pass, bit/s: the resolution at the time of the trial plus one message per trial
 *     window ({@link SearchSpec#messageShortfallBitsPerSecond(long)}); 0 for the calibration trial
 * @param verdict pass, or why not
 */
public record SearchTrial(int number, Phase phase, TrialOutcome outcome, long allowedShortfallBitsPerSecond,
                          Verdict verdict) {
    /** @throws NullPointerException for a null phase, outcome or verdict */
    public SearchTrial {
        Objects.requireNonNull(phase, "phase");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(verdict, "verdict");
    }

    /** Why a trial ran. */
    public enum Phase {
        /** The unlimited-rate trial whose achieved rate is the default max rate. */
        CALIBRATION,
        /** A bisection step. */
        SEARCH,
        /** A re-check of the found rate. */
        CONFIRM;

        /** @return the lower-case name, as tables and JSON print it */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A trial's verdict. */
    public enum Verdict {
        /** Loss within the tolerance and the offered rate achieved within the allowed shortfall. */
        PASS,
        /** More loss than the tolerance allows. */
        LOSS,
        /** The sender fell short of the offered rate by more than the allowed shortfall: it fails as loss does. */
        SHORTFALL,
        /** Nothing was sent in the measured window. */
        NOTHING_SENT,
        /**
         * A confirm trial that the pattern's validity rule refuses besides its loss (a raw receiver's
         * ring dropped frames): {@link TrialOutcome#validityFailures()} says why.
         */
        INVALID,
        /** The calibration trial: measured, not judged. */
        MEASURED;

        /** @return the lower-case name with blanks for underscores, as tables and JSON print it */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', ' ');
        }
    }

    /**
     * Judges one trial (RFC 2544 section 26.1 with a loss tolerance, as TRex's PDR): it passes
     * when it sent something, {@code lost / sent × 100 ≤ tolerance}, and the achieved rate is at
     * least {@code offered − allowedShortfall}. A sender throttled by its own socket or qdisc loses
     * nothing on the wire but did not offer the load, so it fails as loss does.
     *
     * @param o the trial's outcome
     * @param lossTolerancePercent percent of what was sent, 0..100
     * @param allowedShortfallBitsPerSecond bit/s
     * @return the verdict; loss is checked before shortfall
     */
    public static Verdict judge(TrialOutcome o, double lossTolerancePercent, long allowedShortfallBitsPerSecond) {
        return judge(o, lossTolerancePercent, allowedShortfallBitsPerSecond, Phase.SEARCH);
    }

    /**
     * Judges one trial as {@link #judge(TrialOutcome, double, long)} does, and a confirm trial also
     * by the pattern's validity rule: during the search a trial's loss is the signal, while at the
     * found rate a confirm trial with {@linkplain TrialOutcome#validityFailures() validity failures}
     * fails as {@link Verdict#INVALID} (checked after loss and shortfall).
     *
     * @param phase why the trial ran
     * @return the verdict
     */
    public static Verdict judge(TrialOutcome o, double lossTolerancePercent, long allowedShortfallBitsPerSecond,
                                Phase phase) {
        if (o.sent() == 0) {
            return Verdict.NOTHING_SENT;
        }
        if (o.lost() * 100.0 > lossTolerancePercent * o.sent()) {
            return Verdict.LOSS;
        }
        if (o.achievedBitsPerSecond() < (double) o.offeredBitsPerSecond() - allowedShortfallBitsPerSecond) {
            return Verdict.SHORTFALL;
        }
        if (phase == Phase.CONFIRM && !o.validityFailures().isEmpty()) {
            return Verdict.INVALID;
        }
        return Verdict.PASS;
    }

    /** @return whether the trial passed */
    public boolean passed() {
        return verdict == Verdict.PASS;
    }
}
