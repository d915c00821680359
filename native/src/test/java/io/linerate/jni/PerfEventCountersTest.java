package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.cost.CpuCounters;
import io.linerate.core.spi.cost.CpuEvent;
import io.linerate.core.spi.cost.ThreadCounter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class PerfEventCountersTest {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private static void linuxOnly() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"),
                "perf_event_open is Linux's; this host runs " + System.getProperty("os.name"));
    }

    /** Some CPU work the JIT cannot remove: about 20 ms of this thread's CPU time. */
    private static long work() {
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        long x = 1;
        while (THREADS.getCurrentThreadCpuTime() - cpu0 < 20_000_000L) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        return x;
    }

    @Test
    void theTaskClockCountsTheTimeThisThreadRanAsTheJvmDoes() {
        linuxOnly();
        try (ThreadCounter c = new PerfEventCounters().open(CpuEvent.TASK_CLOCK)) {
            long before = c.read();
            long cpu0 = THREADS.getCurrentThreadCpuTime();
            long sink = work();
            long cpu = THREADS.getCurrentThreadCpuTime() - cpu0;
            long taskClock = c.read() - before;

            assertThat(sink).isNotZero();
            // both count this thread's time on a CPU, whatever else the host runs: the kernel's task
            // clock and the JVM's thread CPU time (CLOCK_THREAD_CPUTIME_ID) agree up to read skew
            assertThat(taskClock).isPositive();
            assertThat((double) taskClock / cpu).isBetween(0.5, 2.0);
        }
    }

    @Test
    void instructionsAreCountedOrTheReasonNamesTheCallAndItsError() {
        linuxOnly();
        PerfEventCounters perf = new PerfEventCounters();
        ThreadCounter c;
        try {
            c = perf.open(CpuEvent.INSTRUCTIONS);
        } catch (UnsupportedOperationException e) {
            // a host without hardware counters (most virtual machines): why, never a count of 0
            assertThat(e.getMessage()).startsWith("perf_event_open(instructions) failed: E");
            return;
        }
        try (c) {
            long before = c.read();
            work();
            assertThat(c.read() - before).isPositive();
        }
    }

    @Test
    void aClosedCounterCannotBeReadAndClosingTwiceIsHarmless() {
        linuxOnly();
        ThreadCounter c = new PerfEventCounters().open(CpuEvent.TASK_CLOCK);
        c.close();
        c.close();
        assertThatThrownBy(c::read).isInstanceOf(IllegalStateException.class).hasMessage("counter is closed");
    }

    @Test
    void coreFindsThisProviderThroughServiceLoader() {
        linuxOnly();
        CpuCounters.Opened opened = CpuCounters.open(CpuEvent.TASK_CLOCK);
        assertThat(opened.unavailable()).isNull();
        try (ThreadCounter c = opened.counter()) {
            work();
            assertThat(c.read()).isPositive();
        }
    }
}
