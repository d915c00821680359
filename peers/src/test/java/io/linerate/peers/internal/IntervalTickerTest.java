package io.linerate.peers.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.IntervalSample;
import org.junit.jupiter.api.Test;

/** Running counts cut into interval samples on a fixed grid, with readings made up here. */
class IntervalTickerTest {
    private static final long MS = 1_000_000L;

    @Test
    void samplesAreTheChangeOfTheTotalsOnTheGridFromTheStart() {
        IntervalTicker t = new IntervalTicker(5_000 * MS, 100 * MS);
        assertThat(t.due(5_099 * MS)).isFalse();
        assertThat(t.due(5_100 * MS)).isTrue();
        // read 3 ms late: the interval ends at the reading, the next is still due at 200 ms
        IntervalSample a = t.tick(5_103 * MS, 1_000, 10);
        assertThat(a).isEqualTo(new IntervalSample(0, 103 * MS, 1_000, 10, 0, false));
        assertThat(t.due(5_199 * MS)).isFalse();
        assertThat(t.due(5_200 * MS)).isTrue();
        IntervalSample b = t.tick(5_201 * MS, 2_500, 25);
        assertThat(b).isEqualTo(new IntervalSample(103 * MS, 201 * MS, 1_500, 15, 0, false));
    }

    @Test
    void aLateReadingSkipsTheIntervalsItMissed() {
        IntervalTicker t = new IntervalTicker(0, 100 * MS);
        t.tick(350 * MS, 7, 0);
        assertThat(t.due(399 * MS)).isFalse();
        assertThat(t.due(400 * MS)).isTrue();
    }

    @Test
    void theLastPartialIntervalIsKeptWhenItIsLongEnoughOrHoldsBytes() {
        IntervalTicker t = new IntervalTicker(0, 100 * MS);
        t.tick(100 * MS, 100, 1);
        assertThat(t.last(105 * MS, 100, 1)).as("5 ms, nothing new").isNull();
        assertThat(t.last(105 * MS, 120, 2)).isEqualTo(new IntervalSample(100 * MS, 105 * MS, 20, 1, 0, false));
        IntervalTicker u = new IntervalTicker(0, 100 * MS);
        assertThat(u.last(40 * MS, 0, 0)).isEqualTo(new IntervalSample(0, 40 * MS, 0, 0, 0, false));
    }

    @Test
    void aZeroIntervalIsRefused() {
        assertThatThrownBy(() -> new IntervalTicker(0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("interval 0 ns is out of range; allowed: 1 ns or more");
    }
}
