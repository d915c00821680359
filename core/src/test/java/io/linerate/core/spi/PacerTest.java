package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PacerTest {
    private static final long MS = 1_000_000L;

    @Test
    void rateZeroIsUnlimitedAndNeverDivides() {
        Pacer p = new Pacer(0);
        assertThat(p.unlimited()).isTrue();
        assertThat(p.offsetNanos(0)).isZero();
        assertThat(p.offsetNanos(Long.MAX_VALUE / 8)).isZero();
    }

    @Test
    void tenGigabitPerSecondAbove32Bits() {
        Pacer p = new Pacer(10_000_000_000L);
        // 1220 bytes = 9760 bits at 10^10 bit/s = 976 ns
        assertThat(p.offsetNanos(1220)).isEqualTo(976);
        // 10^9 bytes = 8 * 10^9 bits = 0.8 s
        assertThat(p.offsetNanos(1_000_000_000L)).isEqualTo(800_000_000L);
        // 10^12 bytes = 800 s: the product exceeds 2^32 and 2^31 many times over
        assertThat(p.offsetNanos(1_000_000_000_000L)).isEqualTo(800_000_000_000L);
    }

    @Test
    void oneMegabitPerSecond() {
        Pacer p = new Pacer(1_000_000);
        assertThat(p.offsetNanos(125_000)).isEqualTo(1_000_000_000L);
        assertThat(p.offsetNanos(1)).isEqualTo(8_000);
    }

    @Test
    void hugeOffsetsSaturate() {
        Pacer p = new Pacer(1);
        assertThat(p.offsetNanos(Long.MAX_VALUE / 8)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void aLateSenderCatchesUpTwentyMillisecondsAndTheRestIsForgiven() {
        // 1 Mbit/s: 125 bytes per ms; the sender wakes 100 ms late with 125 bytes sent
        Pacer p = new Pacer(1_000_000);
        p.start(0);
        long now = 100_000_000L;
        assertThat(p.nanosUntilNext(125, now)).isEqualTo(-20_000_000L);
        // the origin moved by 79 ms: 20 more messages may leave now, the 21st waits 1 ms
        assertThat(p.nanosUntilNext(125 * 21, now)).isZero();
        assertThat(p.nanosUntilNext(125 * 22, now)).isEqualTo(1_000_000L);
        assertThat(new Pacer(0).nanosUntilNext(Long.MAX_VALUE / 8, 0)).isZero();
    }

    @Test
    void thousandByteSendsAtEightMegabitsLeaveOncePerMillisecond() {
        // 1000 bytes = 8000 bits; at 8 * 10^6 bit/s that is 1 ms per send
        Pacer p = new Pacer(8_000_000);
        p.start(5 * MS);
        assertThat(p.nanosUntilNext(0, 5 * MS)).isZero();
        assertThat(p.nanosUntilNext(1000, 5 * MS)).isEqualTo(MS);
        assertThat(p.nanosUntilNext(1000, 5 * MS + 400_000)).isEqualTo(600_000);
        assertThat(p.nanosUntilNext(7000, 5 * MS)).isEqualTo(7 * MS);
        // on time: send k leaves k ms after the start, never before
        assertThat(p.nanosUntilNext(7000, 12 * MS)).isZero();
        assertThat(p.nanosUntilNext(7000, 12 * MS - 1)).isEqualTo(1);
    }

    @Test
    void afterAStallOfFiftyMillisecondsTwentyMillisecondsWorthCatchUp() {
        // 1000-byte sends at 8 Mbit/s (1 ms each). Sends 0..9 leave on time at 0..9 ms; send 10 is
        // due at 10 ms but the sender stalls until 60 ms: 50 ms late. It may catch up 20 ms of
        // traffic: the origin moves 30 ms later, so send 10 is due at 40 ms, send 30 at 60 ms, and
        // 21 sends (10..30) leave at 60 ms; send 31 waits until 61 ms. The other 30 ms are forgiven.
        Pacer p = new Pacer(8_000_000);
        p.start(0);
        long sent = 10_000;
        long now = 60 * MS;
        assertThat(p.nanosUntilNext(sent, now)).isEqualTo(-20 * MS);
        int burst = 0;
        while (p.nanosUntilNext(sent, now) <= 0) {
            sent += 1000;
            burst++;
        }
        assertThat(burst).isEqualTo(21);
        assertThat(p.nanosUntilNext(sent, now)).isEqualTo(MS);
        // a stall of exactly 20 ms is caught up whole: nothing forgiven, the origin stays
        Pacer q = new Pacer(8_000_000);
        q.start(0);
        assertThat(q.nanosUntilNext(10_000, 30 * MS)).isEqualTo(-20 * MS);
        assertThat(q.nanosUntilNext(31_000, 30 * MS)).isEqualTo(MS);
    }

    @Test
    void aNewScheduleDropsTheOldDebt() {
        // 1000-byte sends at 8 Mbit/s. The warm-up schedule started at 0; at 100 ms the sender has
        // sent 85 sends, 15 ms behind (send 85 was due at 85 ms). Without a new schedule, 16 sends
        // (85..100) could leave at once at 100 ms. Anchored at 100 ms, only send 85 may leave
        // then, send 86 at 101 ms.
        Pacer behind = new Pacer(8_000_000);
        behind.start(0);
        assertThat(behind.nanosUntilNext(85_000, 100 * MS)).isEqualTo(-15 * MS);
        Pacer p = new Pacer(8_000_000);
        p.start(0);
        p.anchor(100 * MS, 85_000);
        assertThat(p.nanosUntilNext(85_000, 100 * MS)).isZero();
        assertThat(p.nanosUntilNext(86_000, 100 * MS)).isEqualTo(MS);
        assertThat(p.nanosUntilNext(86_000, 100 * MS + 250_000)).isEqualTo(750_000);
    }

    @Test
    void aWindowsAverageNeverExceedsTheTargetWhateverStallsHappen() {
        // A greedy sender of 1000-byte sends at 8 Mbit/s (1 per ms) on a clock stepping 50 µs, with
        // a 15 ms stall just before the window (the warm-up's debt) and stalls of 7, 30 and 3 ms
        // inside it. The window's schedule starts at its first reading W0 = 100 ms. By any reading t
        // in the window, the sends that left at or after W0 are at most floor((t − W0) / 1 ms) + 1:
        // one at W0 and one per whole ms after it; catching up never brings a send forward.
        Pacer p = new Pacer(8_000_000);
        long step = 50_000;
        long w0 = 100 * MS;
        long[][] stalls = {{85 * MS, 100 * MS}, {120 * MS, 127 * MS}, {150 * MS, 180 * MS}, {190 * MS, 193 * MS}};
        p.start(0);
        long sent = 0;
        long inWindow = 0;
        long maxExcess = Long.MIN_VALUE;
        for (long t = 0; t <= 300 * MS; t += step) {
            if (t == w0) {
                p.anchor(w0, sent);
            }
            if (!stalled(stalls, t)) {
                while (p.nanosUntilNext(sent, t) <= 0) {
                    sent += 1000;
                    if (t >= w0) {
                        inWindow++;
                    }
                }
            }
            if (t >= w0) {
                long allowed = (t - w0) / MS + 1;
                assertThat(inWindow).as("sends in the window by %d ns", t).isLessThanOrEqualTo(allowed);
                maxExcess = Math.max(maxExcess, inWindow - allowed);
            }
        }
        // the bound is reached: without stalls the sender is exactly on it
        assertThat(maxExcess).isZero();
        // over the 200 ms window, 201 sends are allowed (at 100, 101, ..., 300 ms); the stall of
        // 30 ms forgives 10 ms (20 are caught up), the stalls of 7 and 3 ms are caught up whole:
        // 201 − 10 = 191 sends
        assertThat(inWindow).isEqualTo(191);
    }

    private static boolean stalled(long[][] stalls, long t) {
        for (long[] s : stalls) {
            if (t >= s[0] && t < s[1]) {
                return true;
            }
        }
        return false;
    }

    @Test
    void negativeRateIsRejected() {
        assertThatThrownBy(() -> new Pacer(-1)).hasMessage("rate -1 bit/s is out of range; allowed: 0 (unlimited) or more");
    }
}
