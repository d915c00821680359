package io.linerate.core.spi.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The sweep times a round trip by the end's own stamps of its calls when the end stamps them and the
 * sweep's clock is {@link System#nanoTime()}'s, and by the sweep's clock otherwise. The in-memory end
 * below stamps every answer exactly {@value #STAMPED_RTT} ns after its message; the fake clock
 * advances {@value #CLOCK_STEP} ns a reading, so each timing gives one value that tells which ran.
 */
class StampedRoundTripTest {
    private static final long STAMPED_RTT = 10_000;
    private static final long CLOCK_STEP = 3_000;
    private static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");
    private static final AppliedOptions OPTIONS = new AppliedOptions(0, 0, 0, 0, 0, 0, false, false);

    /** A loop-back end in memory: a read returns what the last write wrote. */
    private static final class LoopEnd implements MessageEnd {
        private final boolean stamps;
        private final ByteBuffer pending = ByteBuffer.allocate(256);
        private long sendStamp;
        private long receiveStamp;

        LoopEnd(boolean stamps) {
            this.stamps = stamps;
        }

        @Override
        public int read(ByteBuffer buf, long deadlineNanos, boolean whole) {
            pending.flip();
            buf.put(pending);
            pending.clear();
            receiveStamp = sendStamp + STAMPED_RTT;
            return OK;
        }

        @Override
        public int write(ByteBuffer buf, long deadlineNanos) {
            sendStamp = System.nanoTime();
            pending.put(buf);
            return OK;
        }

        @Override
        public boolean stampsCalls() {
            return stamps;
        }

        @Override
        public long sendStartNanos() {
            return sendStamp;
        }

        @Override
        public long receiveEndNanos() {
            return receiveStamp;
        }

        @Override
        public void requestStop() {
        }

        @Override
        public void close() {
        }
    }

    /** @return the round trips of the one 64-byte size, measured part */
    private static ExactRangeHistogram sweep(LoopEnd end, Clock clock) throws Exception {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(64))
                .policy(new IterationPolicy(Duration.ofMillis(1), Duration.ofMillis(500), 50, 500, Duration.ZERO, 5))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = PingPongSweep.sweep(spec, clock, FACTS, end, null, OPTIONS, new long[1], Optional.empty());
        ExactRangeHistogram h = r.report().sizes().get(0).roundTrips();
        assertThat(h.count()).isPositive();
        return h;
    }

    /** @return a clock that reads {@value #CLOCK_STEP} ns more at every reading */
    private static Clock steppingClock() {
        long[] t = {0};
        return () -> t[0] += CLOCK_STEP;
    }

    @Test
    void withTheSystemClockEachRoundTripIsTheEndsStamps() throws Exception {
        ExactRangeHistogram h = sweep(new LoopEnd(true), Clock.system());
        assertThat(h.min()).hasValue(STAMPED_RTT);
        assertThat(h.max()).hasValue(STAMPED_RTT);
    }

    @Test
    void withAnotherClockTheSweepTimesRoundTripsItselfEvenIfTheEndStamps() throws Exception {
        ExactRangeHistogram h = sweep(new LoopEnd(true), steppingClock());
        assertThat(h.min()).hasValue(CLOCK_STEP);
        assertThat(h.max()).hasValue(CLOCK_STEP);
    }

    @Test
    void anEndWithoutStampsIsTimedByTheSweepsClock() throws Exception {
        ExactRangeHistogram h = sweep(new LoopEnd(false), steppingClock());
        assertThat(h.min()).hasValue(CLOCK_STEP);
        assertThat(h.max()).hasValue(CLOCK_STEP);
    }
}
