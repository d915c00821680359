package io.linerate.core;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.Pacer;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.IdleStrategy;
import org.junit.jupiter.api.Test;

/**
 * The wait on a manual clock, exact (park, then spin) and tick modes: a fake parker moves the
 * clock by what it is asked plus a scripted lateness.
 */
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

    /**
     * Drives a pacer and a tick-mode wait as the stream sender does (asking with the bytes it will
     * have sent after the message, its last byte) until the clock reaches {@code untilNanos}; a
     * send takes no time.
     *
     * @return the send time of every message, in order
     */
    private static List<Long> sendTimes(ManualClock clock, Pacer pacer, PacingWait w, int messageBytes, long untilNanos) {
        List<Long> times = new ArrayList<>();
        long sent = 0;
        while (true) {
            long now = clock.nanoTime();
            long wait = pacer.nanosUntilNext(sent + messageBytes, now);
            if (wait > 0) {
                if (now + wait > untilNanos) {
                    return times;
                }
                w.step(now, wait);
            } else {
                times.add(now);
                sent += messageBytes;
            }
        }
    }

    @Test
    void aTickWakesOncePerMillisecondAndSendsEveryMessageThenDue() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 0);
        CountingIdle idle = new CountingIdle(clock);
        PacingWait w = new PacingWait(clock, MS, parker, idle);
        // 1400-byte datagrams at 50 Mbit/s: one per 1400 × 8 / 50e6 s = 224 µs, message k (from 0)
        // due when its last byte is, at (k + 1) × 224 µs
        Pacer pacer = new Pacer(50_000_000L);
        pacer.start(0);
        List<Long> times = sendTimes(clock, pacer, w, 1400, 10 * MS);
        // Parks wake on time (lateness 0), so the slack stays 0 and every wait is one 1 ms park
        // (each wait begins at a tick with the next message under 224 µs away): wakes at 1, 2, ...
        // 10 ms. The wake at t sends the messages due in (t − 1 ms, t]: floor(t / 224 µs) −
        // floor((t − 1 ms) / 224 µs) = 4, 4, 5, 4, 5, 4, 5, 4, 5, 4; 44 in all (44 × 224 = 9856 µs,
        // 45 × 224 = 10080 µs).
        assertThat(parker.requests).hasSize(10).containsOnly(MS);
        assertThat(times).hasSize(44);
        int[] perTick = new int[10];
        for (int k = 0; k < times.size(); k++) {
            long t = times.get(k);
            assertThat(t % MS).as("message %d leaves at a tick", k).isZero();
            perTick[(int) (t / MS) - 1]++;
            // never early, and late by less than a tick
            long due = (k + 1) * 224 * US;
            assertThat(t).isGreaterThanOrEqualTo(due).isLessThan(due + MS);
        }
        assertThat(perTick).containsExactly(4, 4, 5, 4, 5, 4, 5, 4, 5, 4);
        assertThat(idle.idles).as("a tick never spins").isZero();
    }

    @Test
    void aTickParksForLessByTheMeasuredSlack() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 50 * US);
        PacingWait w = new PacingWait(clock, MS, parker, new CountingIdle(clock));
        Pacer pacer = new Pacer(50_000_000L);
        pacer.start(0);
        List<Long> times = sendTimes(clock, pacer, w, 1400, 2200 * US);
        // The first wait (message 0 due at 224 µs) lasts a tick: a park of 1 ms, nothing measured
        // yet, that wakes 50 µs late at 1050 µs; slack (50000 >> 4) = 3125 ns. Due by then: 224,
        // 448, 672, 896 µs (1120 is not): 4 messages at 1050 µs. The next wait (message 4 due at
        // 1120 µs) lasts a tick from 1050 µs: a park of 1 ms − 3125 ns = 996875 ns, 50 µs late, so
        // it wakes at 1050 + 996.875 + 50 = 2096.875 µs; slack 3125 + ((50000 − 3125) >> 4) =
        // 3125 + 2929 = 6054 ns. Due by then: 1120, 1344, 1568, 1792, 2016 µs (2240 is not): 5.
        assertThat(parker.requests).containsExactly(MS, 996_875L);
        assertThat(w.slackNanos()).isEqualTo(6_054);
        assertThat(times).containsExactly(1_050_000L, 1_050_000L, 1_050_000L, 1_050_000L,
                2_096_875L, 2_096_875L, 2_096_875L, 2_096_875L, 2_096_875L);
    }

    @Test
    void aWaitLongerThanATickEndsAtItsDeadlineAndAnEarlyWakeParksAgainInsteadOfSpinning() {
        ManualClock clock = new ManualClock();
        // 80 µs late, then 1 µs late
        FakeParker parker = new FakeParker(clock, 80 * US, US);
        CountingIdle idle = new CountingIdle(clock);
        PacingWait w = new PacingWait(clock, MS, parker, idle);
        // a 100 µs wait lasts a tick: a park of 1 ms that wakes 80 µs late; slack 80000 >> 4 = 5000 ns
        w.step(clock.nanoTime(), 100 * US);
        assertThat(w.slackNanos()).isEqualTo(5_000);
        // a 5 ms wait is longer than a tick, so it ends at its deadline: a park of 5 ms − 5 µs that
        // wakes 1 µs late, 4 µs before the deadline; slack 5000 − ((5000 − 1000) >> 2) = 4000 ns
        long deadline = clock.nanoTime() + 5 * MS;
        long now;
        while ((now = clock.nanoTime()) < deadline) {
            w.step(now, deadline - now);
        }
        // the 4 µs left are inside the 4 µs slack: one more park of 4 µs (1 µs late), no spin
        assertThat(parker.requests).containsExactly(MS, 5 * MS - 5_000, 4_000L);
        assertThat(idle.idles).isZero();
        assertThat(clock.nanoTime()).isEqualTo(deadline + US);
    }

    @Test
    void theTickIsRefusedOutsideZeroToTenMilliseconds() {
        ManualClock clock = new ManualClock();
        FakeParker parker = new FakeParker(clock, 0);
        assertThat(new PacingWait(clock, 0, parker, new CountingIdle(clock)).tickNanos()).isZero();
        assertThat(new PacingWait(clock, 10 * MS, parker, new CountingIdle(clock)).tickNanos()).isEqualTo(10 * MS);
        assertThatThrownBy(() -> new PacingWait(clock, -1, parker, new CountingIdle(clock)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("pacing timer -1 ns is out of range; allowed: 0 (exact: park, then spin)..10000000 ns");
        assertThatThrownBy(() -> new PacingWait(clock, 10 * MS + 1, parker, new CountingIdle(clock)))
                .hasMessageStartingWith("pacing timer 10000001 ns is out of range");
    }

    @Test
    void tickForShortensTheTimerSoThatABurstHoldsAtMostSixteenMessages() {
        // 1400-byte datagrams at 1 Gbit/s: 11200 bits take 11.2 us, 16 of them 179.2 us, under the 1 ms timer
        assertThat(PacingWait.tickFor(1_000_000, 1_000_000_000L, 11_200)).isEqualTo(179_200);
        // at 50 Mbit/s 16 datagrams take 3.584 ms: the 1 ms timer stands
        assertThat(PacingWait.tickFor(1_000_000, 50_000_000L, 11_200)).isEqualTo(1_000_000);
        // unlimited keeps the timer; exact mode stays exact
        assertThat(PacingWait.tickFor(1_000_000, 0, 11_200)).isEqualTo(1_000_000);
        assertThat(PacingWait.tickFor(0, 1_000_000_000L, 11_200)).isZero();
        // an absurd rate never gives a tick of 0, which would mean exact mode
        assertThat(PacingWait.tickFor(1_000_000, Long.MAX_VALUE, 8)).isEqualTo(1);
    }
}
