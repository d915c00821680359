package io.linerate.nio.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.channels.Selector;
import org.junit.jupiter.api.Test;

/** Which wait a UDP receive loop takes, by the reads before it; the times are given, never measured. */
class DatagramWaitTest {
    private static final long T = 1_000_000_000L;

    @Test
    void beforeAnyDatagramTheLoopWaitsOnTheSelector() throws Exception {
        try (Selector s = Selector.open()) {
            DatagramWait w = new DatagramWait(s);
            assertThat(w.polling(T)).isFalse();
            assertThat(w.polling(T + DatagramWait.LINGER_NANOS)).isFalse();
        }
    }

    @Test
    void whileDatagramsFlowItPollsOnItsTimerUntilTheLingerHasPassedWithoutOne() throws Exception {
        try (Selector s = Selector.open()) {
            DatagramWait w = new DatagramWait(s);
            w.read();
            // the wait right after a read notes its time: polling from then on, for the linger
            assertThat(w.polling(T)).isTrue();
            assertThat(w.polling(T + DatagramWait.LINGER_NANOS - 1)).isTrue();
            assertThat(w.polling(T + DatagramWait.LINGER_NANOS)).isFalse();
            // a datagram after the pause: polling again, counted from the wait that follows it
            w.read();
            assertThat(w.polling(T + 3 * DatagramWait.LINGER_NANOS)).isTrue();
            assertThat(w.polling(T + 4 * DatagramWait.LINGER_NANOS - 1)).isTrue();
            assertThat(w.polling(T + 4 * DatagramWait.LINGER_NANOS)).isFalse();
        }
    }
}
