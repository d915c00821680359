package io.linerate.core.spi.latency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.ManualClock;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** An open-loop schedule on a manual clock: due times, late sends, and what a window holds. */
class OpenLoopScheduleTest {
    private static final long US = 1_000L;

    @Test
    void requestsAreDueOnTheScheduleAndLatenessIsMeasuredFromIt() {
        // 10,000 transactions/s on one flow: one request every 100 us from 1 ms on
        OpenLoopSchedule s = new OpenLoopSchedule(1_000 * US, 100 * US);
        assertThat(s.leave(1_000 * US)).isEqualTo(1_000 * US);
        assertThat(s.due()).isEqualTo(1_100 * US);
        // 30 us late: not a whole interval, so not a late send, but the largest lateness
        assertThat(s.leave(1_130 * US)).isEqualTo(1_100 * US);
        // a stall: the next one leaves 250 us after it was due, then the backlog goes at once
        assertThat(s.leave(1_450 * US)).isEqualTo(1_200 * US);
        assertThat(s.leave(1_450 * US)).isEqualTo(1_300 * US);
        assertThat(s.leave(1_450 * US)).isEqualTo(1_400 * US);
        assertThat(s.lateSends()).as("250 and 150 us late; 50 us is not").isEqualTo(2);
        assertThat(s.maxLatenessNanos()).isEqualTo(250 * US);
        assertThat(s.due()).isEqualTo(1_500 * US);
    }

    @Test
    void aWindowNeverHoldsMoreSendsThanRateTimesWindowPlusOne() {
        // a flow at 10,000/s stalls at random (up to 5 ms, as a busy host's) and catches up at once,
        // through the warm-up and the window; the window counts requests by due time only
        long interval = 100 * US;
        ManualClock clock = new ManualClock(0);
        OpenLoopSchedule s = new OpenLoopSchedule(0, interval);
        long open = 200_000 * US + 37;
        long close = open + 1_000_000 * US;
        SplittableRandom random = new SplittableRandom(21);
        long inWindow = 0;
        long late = 0;
        while (clock.nanoTime() < close + 10_000 * US) {
            if (clock.nanoTime() < s.due()) {
                clock.advance(s.due() - clock.nanoTime());
            }
            if (random.nextInt(100) == 0) {
                clock.advance(random.nextLong(5_000 * US));
            }
            long due = s.due();
            late += clock.nanoTime() - due >= interval ? 1 : 0;
            if (OpenLoopSchedule.inWindow(s.leave(clock.nanoTime()), open, close)) {
                inWindow++;
            }
            clock.advance(random.nextLong(80 * US));
        }
        // 10,000/s over 1 s: 10,000 due times, one more when a boundary falls on one
        assertThat(inWindow).isLessThanOrEqualTo(10_000 * (close - open) / 1_000_000_000L + 1).isGreaterThan(9_000);
        assertThat(s.lateSends()).isEqualTo(late).isPositive();
    }

    @Test
    void theWindowIsHalfOpen() {
        assertThat(OpenLoopSchedule.inWindow(100, 100, 200)).isTrue();
        assertThat(OpenLoopSchedule.inWindow(199, 100, 200)).isTrue();
        assertThat(OpenLoopSchedule.inWindow(200, 100, 200)).isFalse();
        assertThat(OpenLoopSchedule.inWindow(99, 100, 200)).isFalse();
    }

    @Test
    void aNonPositiveIntervalIsRefusedNamingTheValue() {
        assertThatThrownBy(() -> new OpenLoopSchedule(0, 0))
                .hasMessage("open-loop interval 0 ns is out of range; allowed: 1 ns or more");
    }

    @Test
    void withAWindowOnlyRequestsDueInItCountAsLate() {
        OpenLoopSchedule s = new OpenLoopSchedule(1_000 * US, 100 * US);
        s.countLatenessIn(Long.MAX_VALUE, Long.MAX_VALUE); // not open yet: a warm-up
        assertThat(s.leave(1_900 * US)).isEqualTo(1_000 * US); // 900 us late, in the warm-up
        s.countLatenessIn(1_100 * US, 1_300 * US);
        assertThat(s.leave(1_900 * US)).isEqualTo(1_100 * US); // 800 us late, in the window
        assertThat(s.leave(1_450 * US)).isEqualTo(1_200 * US); // 250 us late, in the window
        assertThat(s.leave(2_300 * US)).isEqualTo(1_300 * US); // 1000 us late, due at the close: after it
        assertThat(s.lateSends()).isEqualTo(2);
        assertThat(s.maxLatenessNanos()).isEqualTo(800 * US);
    }
}
