package io.linerate.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
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

    @Test
    void itsWaitsAllocateNothingOnceWarm() throws Exception {
        try (Selector s = Selector.open()) {
            DatagramWait w = new DatagramWait(s);
            cycle(w); // the first loads and links what the waits reach
            // a wait that allocated would show at least 16 bytes each, over 16,000 per round of ten cycles
            // (over 1000 waits), in every round; the compiler's own work may show once, not in all three
            boolean clean = false;
            for (int round = 0; round < 3 && !clean; round++) {
                long before = allocatedHere();
                for (int c = 0; c < 10; c++) {
                    cycle(w);
                }
                long allocated = allocatedHere() - before;
                assertThat(allocated).as("heap bytes of ten cycles of waits").isLessThan(1000);
                clean = allocated == 0;
            }
            assertThat(clean).as("one of three rounds of ten cycles allocated nothing").isTrue();
        }
    }

    /** Polls as while datagrams flow, then lingers until the waits go back to the selector, and selects. */
    private static void cycle(DatagramWait w) throws Exception {
        for (int i = 0; i < 100; i++) {
            w.read();
            w.await(1);
        }
        while (w.polling(System.nanoTime())) {
            w.await(1);
        }
        for (int i = 0; i < 3; i++) {
            w.await(1);
        }
    }

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private static long allocatedHere() {
        return THREADS.getCurrentThreadAllocatedBytes();
    }
}
