package io.linerate.core.spi.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.DatagramHeader;
import io.linerate.core.ManualClock;
import io.linerate.core.TransferSpec;
import org.junit.jupiter.api.Test;

/** Pacing on a manual clock. */
class SenderContextTest {
    private static final long MS = 1_000_000L;

    @Test
    void messagesLeaveOnTheRateSchedule() {
        // 1 Mbit/s and 125-byte messages: one message per millisecond, each leaving when its last
        // byte is due, so the first waits 1 ms from the schedule's start
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(125)
                .rateBitsPerSecond(1_000_000).bound(Bound.messages(100)).build(), clock);
        ctx.start(clock.nanoTime());
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        clock.advance(MS);
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
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        clock.advance(MS);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isZero();
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
    void theWindowStartsItsOwnScheduleSoTheWarmupsDebtIsNotCaughtUpInIt() {
        // 1000-byte messages at 8 Mbit/s: one per ms, each leaving when its last byte is due. The
        // warm-up starts at 0; the sender sends 85 messages, then stalls until 100 ms: the 86th was
        // due at 86 ms, 14 ms ago. The window opens with a reading at 100 ms: its first message is
        // due a millisecond later, where the warm-up's schedule would have let 15 go at once.
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(1000)
                .rateBitsPerSecond(8_000_000).bound(Bound.messages(1000)).build(), clock);
        ctx.start(0);
        assertThat(ctx.nanosUntilNextSend(0)).as("the sender's first ask, at the origin").isEqualTo(MS);
        for (int i = 0; i < 85; i++) {
            assertThat(ctx.nextMessageBytes()).isEqualTo(1000);
            assertThat(ctx.phase()).isEqualTo(DatagramHeader.WARMUP);
            ctx.sent(1000, true);
        }
        clock.advance(100 * MS);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(-14 * MS);
        assertThat(ctx.windowBaseBytes()).isEqualTo(-1);
        ctx.openWindow(100 * MS);
        assertThat(ctx.nextMessageBytes()).isEqualTo(1000);
        assertThat(ctx.windowBaseBytes()).isEqualTo(85_000);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        clock.advance(MS);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isZero();
        assertThat(ctx.phase()).isEqualTo(DatagramHeader.WINDOW);
        ctx.sent(1000, true);
        assertThat(ctx.nextMessageBytes()).isEqualTo(1000);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        // the window's messages are counted in its phase: 1 so far, 85 in the warm-up
        assertThat(ctx.messages(DatagramHeader.WINDOW)).isEqualTo(1);
        assertThat(ctx.messages(DatagramHeader.WARMUP)).isEqualTo(85);
    }

    @Test
    void aSenderThatTakesTheWindowUpLateCatchesUpOnTheWindowsScheduleFromItsOpening() {
        // The window opened at 100 ms but the sender only looks at 103 ms (it was busy): the window's
        // schedule still starts at 100 ms, so the 3 messages due at 101, 102 and 103 ms (each when
        // its last byte is due) leave at once and the 4th waits until 104 ms.
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(1000)
                .rateBitsPerSecond(8_000_000).bound(Bound.messages(1000)).build(), clock);
        ctx.start(0);
        assertThat(ctx.nanosUntilNextSend(0)).as("the sender runs from the origin on").isEqualTo(MS);
        ctx.openWindow(100 * MS);
        clock.advance(103 * MS);
        int burst = 0;
        while (ctx.nextMessageBytes() > 0 && ctx.nanosUntilNextSend(clock.nanoTime()) <= 0) {
            ctx.sent(1000, true);
            burst++;
        }
        assertThat(burst).isEqualTo(3);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        assertThat(ctx.windowBaseBytes()).isZero();
    }

    @Test
    void aSenderWhoseThreadStartsLateSendsOnlyItsFirstTicksShareInItsFirstTick() {
        // 1460-byte datagrams at 100 Mbit/s (11,680 bits each), as `stream --reverse --protocol udp
        // --rate 100M` makes the agent send. The schedule's origin is taken at 0, before the sending
        // thread starts; the thread asks first at 15 ms. Its first tick (the pacing timer, shortened
        // for the rate by PacingWait.tickFor) may let out at most the tick's share of the rate,
        // 100e6 bit/s x tick / 11,680 bits, rounded up, not the 15 ms of start-up (128 datagrams)
        // at once, which overran the receiver's buffer.
        ManualClock clock = new ManualClock();
        TransferSpec spec = TransferSpec.builder().protocol(io.linerate.core.Protocol.UDP).payloadBytes(1460)
                .rateBitsPerSecond(100_000_000).bound(Bound.messages(100_000)).build();
        SenderContext ctx = new SenderContext(spec, clock);
        ctx.start(0);
        clock.advance(15 * MS);
        long tick = io.linerate.core.PacingWait.tickFor(spec.pacingTimer().toNanos(), 100_000_000, 1460 * 8);
        long share = (long) Math.ceil(100e6 * tick / 1e9 / (1460 * 8));
        int first = 0;
        long end = clock.nanoTime() + tick;
        while (ctx.nanosUntilNextSend(clock.nanoTime()) <= 0 || clock.nanoTime() < end) {
            if (ctx.nanosUntilNextSend(clock.nanoTime()) <= 0) {
                ctx.sent(1460, true);
                first++;
            } else {
                clock.advance(Math.min(end - clock.nanoTime(), ctx.nanosUntilNextSend(clock.nanoTime())));
            }
        }
        assertThat(tick).isPositive();
        assertThat(first).isBetween(1, (int) share);
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

    @Test
    void aBatchTakesOnlyTheMessagesDueByNow() {
        // 1 Mbit/s and 125-byte messages: one due per ms. After 5 ms the first five are due, the
        // sixth 1 ms later; a batch of at most 4 takes 4
        ManualClock clock = new ManualClock();
        SenderContext ctx = new SenderContext(TransferSpec.builder().payloadBytes(125)
                .rateBitsPerSecond(1_000_000).bound(Bound.messages(100)).build(), clock);
        ctx.start(clock.nanoTime());
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
        clock.advance(5 * MS);
        assertThat(ctx.messagesDue(64)).isEqualTo(5);
        assertThat(ctx.messagesDue(4)).isEqualTo(4);
        for (int i = 0; i < 5; i++) {
            ctx.sent(125, true);
        }
        assertThat(ctx.messagesDue(64)).as("the sixth is due 1 ms later; pace() waits for it").isEqualTo(1);
        assertThat(ctx.nanosUntilNextSend(clock.nanoTime())).isEqualTo(MS);
    }

    @Test
    void aBatchStopsAtTheBound() {
        // unlimited: as many as the bound leaves; 1000 bytes of 300-byte datagrams are 4 (the last exceeds the bound)
        SenderContext byMessages = new SenderContext(TransferSpec.builder().payloadBytes(125)
                .bound(Bound.messages(10)).build(), new ManualClock());
        assertThat(byMessages.messagesDue(64)).isEqualTo(10);
        for (int i = 0; i < 8; i++) {
            byMessages.sent(125, true);
        }
        assertThat(byMessages.messagesDue(64)).isEqualTo(2);
        SenderContext byBytes = new SenderContext(TransferSpec.builder().protocol(io.linerate.core.Protocol.UDP)
                .payloadBytes(300).bound(Bound.bytes(1000)).build(), new ManualClock());
        assertThat(byBytes.messagesDue(64)).isEqualTo(4);
        byBytes.requestStop();
        assertThat(byBytes.messagesDue(64)).isZero();
    }
}
