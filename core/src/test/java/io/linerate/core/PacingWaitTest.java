package io.linerate.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

/** The park-then-spin wait on a manual clock: a fake parker moves the clock by what it is asked plus a scripted lateness. */
class PacingWaitTest {
    private static final long US = 1_000L;
    private static final long MS = 1_000_000L;

    /** Parks by advancing the clock: the request plus the next scripted lateness (negative: woken early). */
    private static final class FakeParker implements PacingWait.Parker {
        final ManualClock clock;
        final long[] lateness;
        final List<Long> requests = new ArrayList<>();
        int next;

        FakeParker(ManualClock clock, long... lateness) {
            this.clock = clock;
            this.lateness = lateness;
        }

        @Override
        public void park(long nanos) {
            requests.add(nanos);
            clock.advance(nanos + lateness[Math.min(next++, lateness.length - 1)]);
        }
    }

    /** Counts turns; each turn moves the clock 1 µs. */
    private static final class CountingIdle implements IdleStrategy {
        final ManualClock clock;
        int idles;
        int resets;

        CountingIdle(ManualClock clock) {
            this.clock = clock;
        }

        @Override
        public void idle(int workCount) {
            if (workCount > 0) {
                reset();
            } else {
                idle();
            }
        }

        @Override
        public void idle() {
            idles++;
            clock.advance(US);
        }

        @Override
        public void reset() {
            resets++;
        }
    }

    @Test
    void theSlackIsMeasuredFromParksAndTheWaitParksForLessByIt() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 80 * US);
        PacingWait w = new PacingWait(clock, parker, new CountingIdle(clock));
        assertThat(w.slackNanos()).isZero();
        // the first wait of 1 ms parks for all of it (nothing measured yet) and wakes 80 µs late;
        // a sample above the estimate moves it by 1/16: (80000 − 0) >> 4 = 5000 ns
        w.step(clock.nanoTime(), MS);
        assertThat(parker.requests).containsExactly(MS);
        assertThat(w.slackNanos()).isEqualTo(5_000);
        // the next 1 ms wait parks for 1 ms − 5 µs; 80 µs late again: 5000 + (75000 >> 4) = 5000 + 4687
        w.step(clock.nanoTime(), MS);
        assertThat(parker.requests).containsExactly(MS, MS - 5_000);
        assertThat(w.slackNanos()).isEqualTo(9_687);
        assertThat(w.measuredParks()).isEqualTo(2);
    }

    @Test
    void aSampleBelowTheEstimateLowersItByAQuarterOfTheDifference() {
        ManualClock clock = new ManualClock();
        // 160 µs late three times, then 8 µs late
        FakeParker parker = new FakeParker(clock, 160 * US, 160 * US, 160 * US, 8 * US);
        PacingWait w = new PacingWait(clock, parker, new CountingIdle(clock));
        w.step(clock.nanoTime(), MS); // 0 + (160000 >> 4) = 10000
        w.step(clock.nanoTime(), MS); // 10000 + (150000 >> 4) = 10000 + 9375 = 19375
        w.step(clock.nanoTime(), MS); // 19375 + (140625 >> 4) = 19375 + 8789 = 28164
        assertThat(w.slackNanos()).isEqualTo(28_164);
        w.step(clock.nanoTime(), MS); // 28164 − ((28164 − 8000) >> 2) = 28164 − 5041 = 23123
        assertThat(w.slackNanos()).isEqualTo(23_123);
    }

    @Test
    void anEarlyWakeUpMeasuresNothingAndALateOneIsClampedToOneMillisecond() {
        ManualClock clock = new ManualClock();
        // woken 300 µs early (an unpark), then 5 ms late (a preemption)
        FakeParker parker = new FakeParker(clock, -300 * US, 5 * MS);
        PacingWait w = new PacingWait(clock, parker, new CountingIdle(clock));
        w.step(clock.nanoTime(), MS);
        assertThat(w.slackNanos()).isZero();
        assertThat(w.measuredParks()).isZero();
        w.step(clock.nanoTime(), MS);
        // the 5 ms sample counts as 1 ms: 0 + 1000000 >> 4 = 62500
        assertThat(w.slackNanos()).isEqualTo(62_500);
        assertThat(w.measuredParks()).isEqualTo(1);
    }

    @Test
    void theLastMicrosecondsGoToTheIdleStrategyWithoutAPark() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 80 * US);
        CountingIdle idle = new CountingIdle(clock);
        PacingWait w = new PacingWait(clock, parker, idle);
        // measure once: slack 5000 ns
        w.step(clock.nanoTime(), MS);
        assertThat(idle.resets).isEqualTo(1);
        // a deadline 3 µs away is inside the 5 µs slack: three idle turns of 1 µs, no park
        long deadline = clock.nanoTime() + 3 * US;
        long now;
        while ((now = clock.nanoTime()) < deadline) {
            w.step(now, deadline - now);
        }
        assertThat(idle.idles).isEqualTo(3);
        assertThat(parker.requests).hasSize(1);
        // a whole wait inside the slack decays the estimate by 1/16 once (not per turn):
        // 5000 − 5000 >> 4 = 5000 − 312 = 4688
        assertThat(w.slackNanos()).isEqualTo(4_688);
        // a long wait parks at most 10 ms at a time
        w.step(clock.nanoTime(), 50 * MS);
        assertThat(parker.requests.get(1)).isEqualTo(PacingWait.MAX_PARK_NANOS);
    }

    @Test
    void nothingHappensWhenTheDeadlineHasPassed() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 80 * US);
        CountingIdle idle = new CountingIdle(clock);
        PacingWait w = new PacingWait(clock, parker, idle);
        w.step(clock.nanoTime(), 0);
        w.step(clock.nanoTime(), -5 * MS);
        assertThat(parker.requests).isEmpty();
        assertThat(idle.idles).isZero();
        assertThat(clock.nanoTime()).isZero();
    }
}
