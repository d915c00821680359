package io.linerate.core.search;

import io.linerate.core.TransferSpec;
import io.linerate.core.Units;
import java.time.Duration;

/** The range checks of a {@link SearchSpec}, apart from the spec's own shape. */
final class SearchSpecRanges {
    private SearchSpecRanges() {}

    /**
     * @param s a spec just built, its interval resolved (a tenth of the trial when none was given)
     * @return {@code s}
     * @throws IllegalArgumentException naming the first bad value and its allowed range
     */
    static SearchSpec check(SearchSpec s) {
        long min = s.minBitsPerSecond();
        long max = s.maxBitsPerSecond();
        if (min < 0) {
            throw new IllegalArgumentException("min rate " + min + " bit/s is out of range; allowed: 0 (1% of the max rate) or more");
        }
        if (max < 0) {
            throw new IllegalArgumentException("max rate " + max
                    + " bit/s is out of range; allowed: 0 (what an unlimited trial achieves) or more");
        }
        if (max > 0 && min >= max) {
            throw new IllegalArgumentException("min rate " + min + " bit/s is not below max rate " + max
                    + " bit/s; allowed: min < max");
        }
        if (max > 0) {
            SearchSpec.checkResolution(s.resolution(), max);
        }
        checkCounts(s);
        checkTimes(s.trial(), s.interval(), s.warmup());
        return s;
    }

    private static void checkCounts(SearchSpec s) {
        if (s.maxTrials() < 1 || s.maxTrials() > 1000) {
            throw new IllegalArgumentException("max trials " + s.maxTrials() + " is out of range; allowed: 1..1000");
        }
        double tolerance = s.lossTolerancePercent();
        if (!(tolerance >= 0 && tolerance < 100)) {
            throw new IllegalArgumentException("loss tolerance " + tolerance
                    + "% is out of range; allowed: 0% (NDR) up to but excluding 100%");
        }
        if (s.confirm() < 1 || s.confirm() > 100) {
            throw new IllegalArgumentException("confirm " + s.confirm() + " is out of range; allowed: 1..100 trials");
        }
        if (s.trialsPerLoad() < 1 || s.trialsPerLoad() > SearchSpec.MAX_TRIALS_PER_LOAD) {
            throw new IllegalArgumentException("trials per load " + s.trialsPerLoad() + " is out of range; allowed: 1 "
                    + "(strict, RFC 2544).." + SearchSpec.MAX_TRIALS_PER_LOAD);
        }
    }

    private static void checkTimes(Duration trial, Duration iv, Duration warmup) {
        if (trial.compareTo(SearchSpec.MIN_TRIAL) < 0 || trial.compareTo(SearchSpec.MAX_TRIAL) > 0) {
            throw new IllegalArgumentException("trial " + Units.text(trial) + " is out of range; allowed: "
                    + SearchSpec.MIN_TRIAL.toMillis() + " ms..1 h");
        }
        int least = SearchSpec.MIN_INTERVALS_PER_TRIAL;
        Duration longest = trial.dividedBy(least);
        if (iv.compareTo(TransferSpec.MIN_INTERVAL) < 0 || iv.compareTo(longest) > 0) {
            throw new IllegalArgumentException("interval " + Units.text(iv) + " is out of range for a trial of "
                    + trial.toMillis() + " ms, which must hold " + least + " reporting intervals; "
                    + "allowed: " + TransferSpec.MIN_INTERVAL.toMillis() + " ms.." + longest.toMillis() + " ms (the trial / "
                    + least + ")" + (iv.compareTo(longest) > 0 ? ", or a trial of "
                    + iv.multipliedBy(least).toMillis() + " ms or more" : ""));
        }
        if (warmup.isNegative() || warmup.compareTo(SearchSpec.MAX_TRIAL) > 0) {
            throw new IllegalArgumentException("warm-up " + Units.text(warmup) + " is out of range; allowed: 0 ms..1 h");
        }
    }
}
