package io.linerate.core.search;

import java.util.Objects;

/**
 * The judgement of one offered load by a rate search: how many trials it took and how many of them
 * failed. In the {@linkplain SearchSpec#strict() strict} search (RFC 2544 section 26.1) one trial
 * decides; in the robust one a load fails when more than half of its
 * {@link SearchSpec#trialsPerLoad()} trials fail (MLRsearch's goal exceed ratio of 50 %), and its
 * trials stop as soon as the verdict is certain.
 *
 * @param number 1, 2, ... in the order the loads were judged
 * @param phase why the load was judged: {@link SearchTrial.Phase#SEARCH} or {@link SearchTrial.Phase#CONFIRM}
 * @param offeredBitsPerSecond the load, bit/s
 * @param firstTrial the {@link SearchTrial#number()} of the first of its trials; the others follow it
 * @param trials how many trials judged it, 1 or more
 * @param failed how many of them did not pass, 0..trials
 * @param passed the verdict
 */
public record LoadJudgement(int number, SearchTrial.Phase phase, long offeredBitsPerSecond, int firstTrial, int trials,
                            int failed, boolean passed) {
    /** @throws IllegalArgumentException when the counts do not fit together */
    public LoadJudgement {
        Objects.requireNonNull(phase, "phase");
        if (trials < 1 || failed < 0 || failed > trials) {
            throw new IllegalArgumentException("a load judgement of " + trials + " trials with " + failed
                    + " failed; allowed: 1 or more trials, 0..trials failed");
        }
    }

    /**
     * Whether trials at one load have decided it (MLRsearch's rule with a goal exceed ratio of 50 %
     * and a goal duration sum of {@code N} trials).
     *
     * @param spec gives {@code N}, {@code K = ⌊N / 2⌋ + 1} and {@code N − K + 1}
     * @param passes trials at the load that passed so far
     * @param fails trials at the load that failed so far
     * @return {@code true} when {@code fails ≥ K} (the load failed) or {@code passes ≥ N − K + 1}
     *     (it can no longer fail)
     */
    public static boolean decided(SearchSpec spec, int passes, int fails) {
        return fails >= spec.failuresToFail() || passes >= spec.passesToPass();
    }

    /** @return the number of the last of its trials */
    public int lastTrial() {
        return firstTrial + trials - 1;
    }

    /** @return {@code pass} or {@code fail} */
    public String verdictLabel() {
        return passed ? "pass" : "fail";
    }
}
