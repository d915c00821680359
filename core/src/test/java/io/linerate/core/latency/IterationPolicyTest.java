package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Floors, caps and warm-up of one size's run, on a manual clock. */
class IterationPolicyTest {

    /** What a run did: samples taken in warm-up and in the measured part, and the measured time. */
    record Outcome(int warmup, long measured, long measuredNanos) {}

    /** Runs samples that each take {@code sampleNanos} on a manual clock until the policy stops. */
    static Outcome run(IterationPolicy policy, long sampleNanos) {
        ManualClock clock = new ManualClock(1_000_000);
        IterationPolicy.Progress p = policy.newProgress();
        p.begin(clock.nanoTime());
        int warm = 0;
        long recorded = 0;
        for (int guard = 0; guard < 2_000_000; guard++) {
            boolean warming = p.warmingUp();
            clock.advance(sampleNanos);
            if (warming) {
                warm++;
            } else {
                recorded++;
            }
            if (!p.completed(clock.nanoTime())) {
                assertThat(p.done()).isTrue();
                assertThat(p.measuredIterations()).isEqualTo(recorded);
                return new Outcome(warm, recorded, p.measuredNanos());
            }
        }
        throw new AssertionError("the policy never stopped");
    }

    /** Runs as {@link #run} and returns the finished progress. */
    static IterationPolicy.Progress finished(IterationPolicy policy, long sampleNanos) {
        ManualClock clock = new ManualClock(1_000_000);
        IterationPolicy.Progress p = policy.newProgress();
        p.begin(clock.nanoTime());
        for (int guard = 0; guard < 2_000_000; guard++) {
            clock.advance(sampleNanos);
            if (!p.completed(clock.nanoTime())) {
                return p;
            }
        }
        throw new AssertionError("the policy never stopped");
    }

    @Test
    void aTimeCapThatEndsARunBelowItsIterationFloorSaysSo() {
        // 1 ms per sample, cap 100 ms, miniter 1000: the 100th sample hits the cap
        assertThat(finished(policy(10, 100, 1000, 100_000, 0, 0), 1_000_000).shortfall())
                .hasValue("the time cap maxms 100 ms ended it after 100 round trips, below miniter 1000");
    }

    @Test
    void anIterationCapThatEndsARunBelowItsTimeFloorSaysSo() {
        // 0.5 ms per sample, maxiter 10, minms 50: the 10th sample ends it at 5 ms
        assertThat(finished(policy(50, 100, 5, 10, 0, 0), 500_000).shortfall())
                .hasValue("the round-trip cap maxiter 10 ended it after 5.000 ms, below minms 50 ms");
    }

    @Test
    void aRunThatMetBothFloorsOrIsNotDoneHasNoShortfall() {
        assertThat(finished(policy(10, 100, 5, 1000, 0, 0), 1_000_000).shortfall()).isEmpty();
        IterationPolicy.Progress p = policy(10, 100, 1000, 100_000, 0, 0).newProgress();
        p.begin(0);
        p.completed(1_000_000);
        assertThat(p.shortfall()).isEmpty();
    }

    static IterationPolicy policy(long minMs, long maxMs, long minIter, long maxIter, long warmMs, long warmIter) {
        return new IterationPolicy(Duration.ofMillis(minMs), Duration.ofMillis(maxMs), minIter, maxIter,
                Duration.ofMillis(warmMs), warmIter);
    }

    @Test
    void aWarmupThatHasNotReachedItsIterationsEndsAtTheTimeCap() {
        // 30 ms per sample, a warm-up of 1000 samples and a 100 ms cap: the warm-up ends with its 4th
        // sample (120 ms >= 100 ms), not its 1000th; then the measured part meets miniter 2 and
        // minms 10 with 2 samples (60 ms)
        assertThat(run(policy(10, 100, 2, 1000, 0, 1000), 30_000_000)).isEqualTo(new Outcome(4, 2, 60_000_000));
    }

    @Test
    void theTimeFloorHoldsAfterTheIterationFloorIsMet() {
        // 1 ms per sample: 5 samples meet miniter but only 5 of 10 ms; the 10th meets both
        assertThat(run(policy(10, 100, 5, 1000, 0, 0), 1_000_000)).isEqualTo(new Outcome(0, 10, 10_000_000));
    }

    @Test
    void theIterationFloorHoldsAfterTheTimeFloorIsMet() {
        // 5 ms per sample: 10 ms are met after 2, but miniter asks for 5
        assertThat(run(policy(10, 100, 5, 1000, 0, 0), 5_000_000)).isEqualTo(new Outcome(0, 5, 25_000_000));
    }

    @Test
    void theTimeCapStopsBeforeTheIterationFloor() {
        // 30 ms per sample: 90 ms after 3, 120 ms after 4 hits the 100 ms cap
        assertThat(run(policy(10, 100, 1000, 100_000, 0, 0), 30_000_000)).isEqualTo(new Outcome(0, 4, 120_000_000));
    }

    @Test
    void theIterationCapStopsBeforeTheTimeFloor() {
        assertThat(run(policy(1000, 10_000, 5, 7, 0, 0), 1_000_000)).isEqualTo(new Outcome(0, 7, 7_000_000));
    }

    @Test
    void warmupSamplesAreDiscardedUntilBothWarmupFloorsAreMet() {
        // 2 ms per sample: 3 warm-up iterations are done after 6 ms, 10 ms after the 5th sample;
        // then 2 measured samples meet miniter 2 and minms 0
        assertThat(run(policy(0, 100, 2, 10, 10, 3), 2_000_000)).isEqualTo(new Outcome(5, 2, 4_000_000));
        // iterations dominate the warm-up: 4 warm-up samples of 1 ms each outlast 2 ms
        assertThat(run(policy(0, 100, 1, 10, 2, 4), 1_000_000)).isEqualTo(new Outcome(4, 1, 1_000_000));
    }

    @Test
    void defaultsAreSfntPingpongs() {
        IterationPolicy d = IterationPolicy.DEFAULT;
        assertThat(d.minTime()).isEqualTo(Duration.ofSeconds(1));
        assertThat(d.maxTime()).isEqualTo(Duration.ofSeconds(3));
        assertThat(d.minIterations()).isEqualTo(1000);
        assertThat(d.maxIterations()).isEqualTo(1_000_000);
        // 1 us per sample: the 1 s floor needs 1,000,000 samples, which is also the cap
        assertThat(run(d, 1_000).measured()).isEqualTo(1_000_000);
    }

    @Test
    void misuseIsAnError() {
        IterationPolicy.Progress p = IterationPolicy.DEFAULT.newProgress();
        assertThatThrownBy(() -> p.completed(0)).isInstanceOf(IllegalStateException.class).hasMessage("this run has not begun");
        p.begin(0);
        assertThatThrownBy(() -> p.begin(0)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void badPoliciesNameTheValueAndRange() {
        assertThatThrownBy(() -> policy(10, 100, 0, 10, 0, 0)).hasMessage("miniter 0 is out of range; allowed: >= 1");
        assertThatThrownBy(() -> policy(10, 100, 1, 0, 0, 0)).hasMessage("maxiter 0 is out of range; allowed: >= 1");
        assertThatThrownBy(() -> policy(10, 100, 20, 10, 0, 0))
                .hasMessage("miniter 20 is above maxiter 10; allowed: miniter <= maxiter");
        assertThatThrownBy(() -> policy(200, 100, 1, 10, 0, 0))
                .hasMessage("minms 200 is above maxms 100; allowed: minms <= maxms");
        assertThatThrownBy(() -> policy(0, 0, 1, 10, 0, 0)).hasMessage("maxms 0 is out of range; allowed: > 0");
        assertThatThrownBy(() -> policy(-1, 10, 1, 10, 0, 0)).hasMessage("minms -1 is out of range; allowed: >= 0");
        assertThatThrownBy(() -> policy(0, 10, 1, 10, -1, 0)).hasMessage("warmupms -1 is out of range; allowed: >= 0");
        assertThatThrownBy(() -> policy(0, 10, 1, 10, 0, -1)).hasMessage("warmupiter -1 is out of range; allowed: >= 0");
    }
}
