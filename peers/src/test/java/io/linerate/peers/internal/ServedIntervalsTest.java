package io.linerate.peers.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.IntervalSample;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedTestListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The interval clock every server's lines come from, driven by hand-made times and counts. */
class ServedIntervalsTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 5 * S;

    private final List<ServedInterval> got = new ArrayList<>();
    private final ServedTestListener record = new ServedTestListener() {
        @Override
        public void onInterval(ServedInterval i) {
            got.add(i);
        }
    };

    private ServedIntervals udp(long omitEnd) {
        return new ServedIntervals(record, 7, 0, false, true, T0, Duration.ofSeconds(1), omitEnd);
    }

    @Test
    void eachBoundaryReportsTheCountsSinceThePreviousOneAndTheLinesAddUpToTheEnd() {
        ServedIntervals lines = udp(T0);
        lines.tick(T0 + S / 2, 500, 5, 0, 10_000);          // before the first boundary: nothing
        lines.tick(T0 + S + 3_000_000, 1000, 10, 1, 20_000); // 3 ms late: its real end
        lines.tick(T0 + 2 * S, 2500, 25, 3, Double.NaN);
        lines.finish(T0 + 2 * S + S / 4, 2600, 26, 3, 30_000);

        assertThat(got).extracting(i -> i.sample().bytes()).containsExactly(1000L, 1500L, 100L);
        IntervalSample first = got.get(0).sample();
        assertThat(first.startNanos()).isZero();
        assertThat(first.endNanos()).isEqualTo(S + 3_000_000);
        assertThat(first.datagrams()).isEqualTo(10);
        assertThat(first.lost()).isEqualTo(1);
        assertThat(first.jitterNanos()).isEqualTo(OptionalDouble.of(20_000));
        // the second starts where the first ended; NaN jitter is none
        assertThat(got.get(1).sample().startNanos()).isEqualTo(S + 3_000_000);
        assertThat(got.get(1).sample().lost()).isEqualTo(2);
        assertThat(got.get(1).sample().jitterNanos()).isEmpty();
        assertThat(got).allMatch(i -> i.test() == 7 && i.udp() && !i.sent() && !i.sample().omitted());
    }

    @Test
    void aLateTickSkipsToTheNextWholeIntervalAfterIt() {
        ServedIntervals lines = udp(T0);
        lines.tick(T0 + 3 * S + S / 2, 300, 3, 0, Double.NaN);
        assertThat(lines.due(T0 + 3 * S + S / 2 + 1)).isFalse();
        assertThat(lines.due(T0 + 4 * S)).isTrue();
        assertThat(got).hasSize(1);
        assertThat(got.get(0).sample().endNanos()).isEqualTo(3 * S + S / 2);
    }

    @Test
    void anEmptyRestShorterThanATenthIsLeftOutAndFinishReportsOnce() {
        ServedIntervals lines = udp(T0);
        lines.tick(T0 + S, 1000, 10, 0, 1.0);
        lines.finish(T0 + S + S / 20, 1000, 10, 0, 1.0);
        lines.finish(T0 + 2 * S, 2000, 20, 0, 1.0);
        assertThat(got).hasSize(1);
        assertThat(lines.due(T0 + 5 * S)).isFalse();
    }

    @Test
    void intervalsThatStartInTheOmitPeriodAreMarkedOmitted() {
        ServedIntervals lines = udp(T0 + 2 * S);
        lines.tick(T0 + S, 100, 1, 0, 1.0);
        lines.tick(T0 + 2 * S + 1_000_000, 200, 2, 0, 1.0);
        lines.tick(T0 + 3 * S, 300, 3, 0, 1.0);
        assertThat(got).extracting(i -> i.sample().omitted()).containsExactly(true, true, false);
    }

    @Test
    void anIntervalShorterThanATenthOfASecondIsRaisedToIt() {
        ServedIntervals lines = new ServedIntervals(record, 1, 0, true, false, T0, Duration.ofMillis(1), T0);
        lines.tick(T0 + 50_000_000, 1, 0, 0, Double.NaN);
        assertThat(got).isEmpty();
        lines.tick(T0 + 100_000_000, 2, 0, 0, Double.NaN);
        assertThat(got).hasSize(1);
        // data sent: no datagram loss or jitter columns
        assertThat(got.get(0).sent()).isTrue();
        assertThat(got.get(0).sample().jitterNanos()).isEmpty();
    }
}
