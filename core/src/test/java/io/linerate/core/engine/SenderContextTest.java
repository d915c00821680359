package io.linerate.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.ManualClock;
import io.linerate.core.TransferSpec;
import org.junit.jupiter.api.Test;

/** Pacing on a manual clock. */
class SenderContextTest {
    private static final long MS = 1_000_000L;

    @Test
    void messagesLeaveOnTheRateSchedule() {
        // 1 Mbit/s and 125-byte messages: one message per millisecond
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(125)
                .rateBitsPerSecond(1_000_000).bound(Bound.messages(100)).build(), clock);
        ctx.start(clock.nanoTime());
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isZero();
        ctx.sent(125, true);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        clock.advance(MS / 4);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(3 * MS / 4);
    }

    @Test
    void aStallCatchesUpByAtMostTwentyMillisecondsOfTraffic() {
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(125)
                .rateBitsPerSecond(1_000_000).bound(Bound.messages(1000)).build(), clock);
        ctx.start(clock.nanoTime());
        ctx.sent(125, true);
        // the sender stalls for 100 ms: it may send 20 ms of traffic at once (20 messages) plus the
        // one due now, then it is back on the schedule; the other 79 ms of debt are forgiven
        clock.advance(100 * MS);
        int burst = 0;
        while (ctx.nanosUntilNextSend(clock.nanoTime()) <= 0) {
            ctx.sent(125, true);
            burst++;
        }
        assertThat(burst).isEqualTo(21);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
    }

    @Test
    void unlimitedRateNeverWaits() {
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().build(), clock);
        ctx.start(0);
        ctx.sent(1_000_000, true);
        assertThat(ctx.nanosUntilNextSend(0)).isZero();
        assertThat(ctx.pace()).isTrue();
    }
}
