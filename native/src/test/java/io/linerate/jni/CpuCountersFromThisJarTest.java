package io.linerate.jni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.spi.cost.CpuCounterProvider;
import io.linerate.core.spi.cost.CpuCounters;
import io.linerate.core.spi.cost.CpuEvent;
import io.linerate.core.spi.cost.ThreadCounter;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Core finds the perf_event provider through {@link ServiceLoader} with linerate-native alone on the
 * class path (this module's tests have no AF_PACKET jar), and counts instructions with it where
 * the host lets a process count them.
 */
class CpuCountersFromThisJarTest {

    @Test
    void theAfPacketTransportIsNotOnThisClassPath() {
        assertThatThrownBy(() -> Class.forName("io.linerate.afpacket.AfPacket"))
                .isInstanceOf(ClassNotFoundException.class);
    }

    @Test
    void serviceLoaderFindsThePerfEventProvider() {
        List<String> providers = ServiceLoader.load(CpuCounterProvider.class).stream()
                .map(p -> p.type().getName()).toList();
        assertThat(providers).containsExactly("io.linerate.jni.PerfEventCounters");
    }

    @Test
    void instructionsOfABusyLoopAreCountedOrTheProviderSaysWhyNot() {
        Assumptions.assumeTrue(System.getProperty("os.name", "").startsWith("Linux"),
                "perf_event_open is Linux's; this host runs " + System.getProperty("os.name"));
        CpuCounters.Opened opened = CpuCounters.open(CpuEvent.INSTRUCTIONS);
        if (opened.counter() == null) {
            // the provider was found and asked (not "no CPU counter provider"): a host without
            // hardware counters, or one that forbids them, names the call and its error
            assertThat(opened.unavailable()).startsWith("perf_event: perf_event_open(instructions) failed: E")
                    .matches("perf_event: perf_event_open\\(instructions\\) failed: E[A-Z]+ \\(.+\\).*");
            return;
        }
        try (ThreadCounter c = opened.counter()) {
            long before = c.read();
            long sink = busyLoop(10_000_000);
            long counted = c.read() - before;
            assertThat(sink).isNotZero();
            // each of the 10^7 iterations takes at least one instruction
            assertThat(counted).isGreaterThan(10_000_000L);
        }
    }

    /** @return a value the loop computes, so the JIT cannot remove it */
    private static long busyLoop(int iterations) {
        long x = 1;
        for (int i = 0; i < iterations; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }
}
