package io.linerate.core.latency;

import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * How long one message size runs, as sfnt-pingpong's {@code --minms/--maxms/--miniter/--maxiter}:
 * after a warm-up whose samples are discarded, a size runs until both floors are met (at least
 * {@code minTime} measured and at least {@code minIterations} samples) and stops as soon as either
 * cap is hit ({@code maxTime} or {@code maxIterations}), whichever comes first.
 *
 * <p>The warm-up lasts until both {@code warmupIterations} samples are taken and {@code warmup}
 * has passed, or until it has lasted {@code maxTime}, so that a slow host cannot keep a size in
 * its warm-up without bound; with both zero there is none.
 *
 * @param minTime time floor of the measured part, at least 0
 * @param maxTime time cap of the measured part, greater than 0 and at least {@code minTime}
 * @param minIterations sample floor, at least 1
 * @param maxIterations sample cap, at least {@code minIterations}
 * @param warmup time of the warm-up, at least 0
 * @param warmupIterations samples of the warm-up, at least 0
 */
public record IterationPolicy(Duration minTime, Duration maxTime, long minIterations, long maxIterations,
                              Duration warmup, long warmupIterations) {
    /** sfnt-pingpong's defaults: 1000/3000 ms, 1000/1000000 iterations, no warm-up. */
    public static final IterationPolicy DEFAULT = new IterationPolicy(Duration.ofMillis(1000),
            Duration.ofMillis(3000), 1000, 1_000_000, Duration.ZERO, 0);

    /** @throws IllegalArgumentException naming the value and its allowed range */
    public IterationPolicy {
        if (minTime.isNegative()) {
            throw new IllegalArgumentException("minms " + minTime.toMillis() + " is out of range; allowed: >= 0");
        }
        if (maxTime.isNegative() || maxTime.isZero()) {
            throw new IllegalArgumentException("maxms " + maxTime.toMillis() + " is out of range; allowed: > 0");
        }
        if (minTime.compareTo(maxTime) > 0) {
            throw new IllegalArgumentException("minms " + minTime.toMillis() + " is above maxms "
                    + maxTime.toMillis() + "; allowed: minms <= maxms");
        }
        if (minIterations < 1) {
            throw new IllegalArgumentException("miniter " + minIterations + " is out of range; allowed: >= 1");
        }
        if (maxIterations < 1) {
            throw new IllegalArgumentException("maxiter " + maxIterations + " is out of range; allowed: >= 1");
        }
        if (minIterations > maxIterations) {
            throw new IllegalArgumentException("miniter " + minIterations + " is above maxiter " + maxIterations
                    + "; allowed: miniter <= maxiter");
        }
        if (warmup.isNegative()) {
            throw new IllegalArgumentException("warmupms " + warmup.toMillis() + " is out of range; allowed: >= 0");
        }
        if (warmupIterations < 0) {
            throw new IllegalArgumentException("warmupiter " + warmupIterations + " is out of range; allowed: >= 0");
        }
    }

    /** @return a new, not yet begun tracker of one size's run under this policy */
    public Progress newProgress() {
        return new Progress(this);
    }

    /**
     * Tracks one size's run. The caller takes a clock reading at the end of every sample and hands
     * it over; the tracker reads no clock itself and allocates nothing. Single-threaded.
     */
    public static final class Progress {
        private final long minNanos;
        private final long maxNanos;
        private final long minIterations;
        private final long maxIterations;
        private final long warmupNanos;
        private final long warmupIterations;
        private boolean begun;
        private boolean warming;
        private boolean done;
        private long phaseStart;
        private long count;
        private long lastReading;

        Progress(IterationPolicy p) {
            this.minNanos = p.minTime.toNanos();
            this.maxNanos = p.maxTime.toNanos();
            this.minIterations = p.minIterations;
            this.maxIterations = p.maxIterations;
            this.warmupNanos = p.warmup.toNanos();
            this.warmupIterations = p.warmupIterations;
        }

        /**
         * Starts the run.
         *
         * @param now clock reading before the first sample, ns
         * @throws IllegalStateException if already begun
         */
        public void begin(long now) {
            if (begun) {
                throw new IllegalStateException("this run has already begun");
            }
            begun = true;
            warming = warmupNanos > 0 || warmupIterations > 0;
            phaseStart = now;
            lastReading = now;
        }

        /** @return whether the next sample belongs to the warm-up, and is to be discarded */
        public boolean warmingUp() {
            return warming;
        }

        /**
         * Accounts one completed sample.
         *
         * @param now clock reading taken at the end of the sample, ns
         * @return whether to take another sample; false once a cap is hit or both floors are met
         * @throws IllegalStateException if not begun or already done
         */
        public boolean completed(long now) {
            if (!begun || done) {
                throw new IllegalStateException(begun ? "this run is already done" : "this run has not begun");
            }
            lastReading = now;
            count++;
            if (warming) {
                if ((count >= warmupIterations && now - phaseStart >= warmupNanos) || now - phaseStart >= maxNanos) {
                    warming = false;
                    phaseStart = now;
                    count = 0;
                }
                return true;
            }
            long elapsed = now - phaseStart;
            if (count >= maxIterations || elapsed >= maxNanos || (count >= minIterations && elapsed >= minNanos)) {
                done = true;
            }
            return !done;
        }

        /** @return samples counted in the measured part so far (warm-up excluded) */
        public long measuredIterations() {
            return warming ? 0 : count;
        }

        /** @return length of the measured part so far, ns: last reading minus the reading that opened it */
        public long measuredNanos() {
            return warming ? 0 : lastReading - phaseStart;
        }

        /** @return whether a cap was hit or both floors were met */
        public boolean done() {
            return done;
        }

        /**
         * Says which floor a cap cut short, once the run is {@link #done()}: the time cap
         * ({@code maxms}) before {@code miniter} samples, or the sample cap ({@code maxiter})
         * before {@code minms} had passed. The figures then rest on fewer samples, or a shorter
         * time, than the policy asked for.
         *
         * @return empty when both floors were met or the run is not done; else the cap, the floor
         *     and what was measured, such as {@code the time cap maxms 100 ms ended it after 6357
         *     round trips, below miniter 1000000}
         */
        public Optional<String> shortfall() {
            if (!done || warming) {
                return Optional.empty();
            }
            if (count < minIterations) {
                return Optional.of("the time cap maxms " + maxNanos / 1_000_000L + " ms ended it after "
                        + count + " round trips, below miniter " + minIterations);
            }
            long elapsed = lastReading - phaseStart;
            if (elapsed < minNanos) {
                return Optional.of("the round-trip cap maxiter " + maxIterations + " ended it after "
                        + String.format(Locale.ROOT, "%.3f", elapsed / 1e6) + " ms, below minms "
                        + minNanos / 1_000_000L + " ms");
            }
            return Optional.empty();
        }
    }
}
