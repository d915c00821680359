package io.linerate.core.spi.cpu;

import java.util.BitSet;
import java.util.Optional;

/**
 * Sets and reads the calling thread's CPU set. Found by {@link ThreadAffinity} through
 * {@link java.util.ServiceLoader} (register it in
 * {@code META-INF/services/io.linerate.core.spi.cpu.ThreadAffinityProvider}); the native module
 * ({@code linerate-native}) provides one over Linux's {@code sched_setaffinity(2)}.
 * Implementations need a public no-argument constructor that does no I/O and never throws.
 */
public interface ThreadAffinityProvider {

    /** @return the provider's name, such as {@code sched_setaffinity} */
    String name();

    /** @return why this provider cannot set a thread's CPU set on this host, or empty when it can */
    Optional<String> unavailabilityCause();

    /**
     * Sets the calling thread's CPU set.
     *
     * @param cpus the CPUs, bit n for CPU n; not empty
     * @throws UnsupportedOperationException when the provider is unavailable (its cause)
     * @throws IllegalArgumentException when the kernel refuses the set (none of its CPUs is online
     *     and allowed: EINVAL), naming the set and the error
     */
    void setCurrentThread(BitSet cpus);

    /**
     * @return the calling thread's CPU set, bit n for CPU n
     * @throws UnsupportedOperationException when the provider is unavailable (its cause)
     */
    BitSet currentThread();
}
