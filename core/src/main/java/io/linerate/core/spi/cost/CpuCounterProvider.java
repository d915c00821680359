package io.linerate.core.spi.cost;

import java.util.Optional;

/**
 * Counts CPU events per thread. Found by {@link CpuCounters} through {@link java.util.ServiceLoader}
 * (register it in {@code META-INF/services/io.linerate.core.spi.cost.CpuCounterProvider}); the
 * native module ({@code linerate-native}) provides one over Linux's {@code perf_event_open(2)}.
 * Implementations need a public no-argument constructor that does no I/O and never throws.
 */
public interface CpuCounterProvider {

    /** @return the provider's name, such as {@code perf_event} */
    String name();

    /**
     * Opens a counter of {@code event} on the calling thread.
     *
     * @param event what to count
     * @return the counter, counting from now
     * @throws UnsupportedOperationException saying why when this host cannot count the event (no
     *     hardware counters in a virtual machine, {@code perf_event_paranoid} too high, no native
     *     library); the message names the system call and its error
     */
    ThreadCounter open(CpuEvent event);

    /** @return why no counter of any event can be opened on this host, or empty when some can */
    Optional<String> unavailabilityCause();
}
