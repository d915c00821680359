package io.linerate.core.spi.latency;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.RunFacts;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The timeout bounds a whole round trip on every transport: an answer that a transport hands over
 * only after the round trip's deadline (as when this end was stopped while the answer waited in its
 * socket) fails the run, whether or not the end noticed the deadline itself.
 */
class LateAnswerTest {
    private static final RunFacts FACTS = new RunFacts("test", "d", "u", "c", "j", "o");
    private static final AppliedOptions OPTIONS = new AppliedOptions(0, 0, 0, 0, 0, 0, false, false);

    /** Answers the first {@code inTime} messages at once, then each one only once its deadline has passed. */
    private static final class SlowEnd implements MessageEnd {
        private final ByteBuffer pending = ByteBuffer.allocate(256);
        private int answered;
        private final int inTime;

        SlowEnd(int inTime) {
            this.inTime = inTime;
        }

        @Override
        public int read(ByteBuffer buf, long deadlineNanos, boolean whole) {
            if (answered++ >= inTime) {
                while (System.nanoTime() - deadlineNanos <= 0) {
                    Thread.onSpinWait(); // the answer is there only after the deadline
                }
            }
            pending.flip();
            buf.put(pending);
            pending.clear();
            return OK;
        }

        @Override
        public int write(ByteBuffer buf, long deadlineNanos) {
            pending.put(buf);
            return OK;
        }

        @Override
        public void requestStop() {
        }

        @Override
        public void close() {
        }
    }

    @Test
    void anAnswerThereOnlyAfterTheTimeoutFailsTheRunAsATimeout() {
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.TCP).sizes(List.of(64))
                .policy(new IterationPolicy(Duration.ofSeconds(30), Duration.ofSeconds(30), 1_000, 1_000, Duration.ZERO, 0))
                .timeout(Duration.ofMillis(20)).build();
        assertThatThrownBy(() -> PingPongSweep.sweep(spec, Clock.system(), FACTS, new SlowEnd(7), null, OPTIONS,
                new long[1], Optional.empty()))
                .isInstanceOf(TransferException.class)
                .hasMessageStartingWith("tcp ping-pong of 64-byte messages ended: the answer was there only ")
                .hasMessageContaining(" ms after the timeout of 20 ms (a stalled client or server)")
                .hasMessageEndingWith("; 7 round trips completed");
    }
}
