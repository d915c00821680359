package io.linerate.core.spi.cpu;

import io.linerate.core.TransferException;
import io.linerate.core.spi.Providers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins the calling thread to one CPU for a run, through the first {@link ThreadAffinityProvider} on
 * the class path that is available, and reads the thread's CPU set back from the kernel's account
 * of it ({@code Cpus_allowed_list} in {@code /proc/thread-self/status}, proc(5)), which does not go
 * through the provider. Without a provider, {@link #pin} says so instead of running unpinned.
 */
public final class ThreadAffinity {
    /** Why no thread can be pinned when no provider is on the class path. */
    public static final String NO_PROVIDER = "no thread affinity provider on the class path "
            + "(linerate-native provides one over sched_setaffinity on Linux)";
    private static final Logger LOG = LoggerFactory.getLogger(ThreadAffinity.class);
    private static final Path THREAD_STATUS = Path.of("/proc/thread-self/status");
    private static final String FIELD = "Cpus_allowed_list:";

    private ThreadAffinity() {}

    /** @return why no thread can be pinned here (no provider, or why each is unavailable), or empty */
    public static Optional<String> unavailabilityCause() {
        StringBuilder why = new StringBuilder();
        return find(why) != null ? Optional.empty() : Optional.of(why.length() == 0 ? NO_PROVIDER : why.toString());
    }

    /**
     * Pins the calling thread to {@code cpu} until the returned pin is closed, which gives the thread
     * back the CPU set it had.
     *
     * @param cpu the CPU, 0..{@value CpuList#MAX_CPU}, one of the calling thread's CPU set
     * @return the pin
     * @throws IllegalArgumentException naming the CPU and the thread's CPU set when the CPU is out
     *     of range or not in the set
     * @throws UnsupportedOperationException saying why when no provider can pin here
     */
    public static Pin pin(int cpu) {
        if (cpu < 0 || cpu > CpuList.MAX_CPU) {
            throw new IllegalArgumentException("CPU " + cpu + " is out of range; allowed: 0-" + CpuList.MAX_CPU);
        }
        StringBuilder why = new StringBuilder();
        ThreadAffinityProvider p = find(why);
        if (p == null) {
            throw new UnsupportedOperationException("cannot pin a thread to CPU " + cpu + ": "
                    + (why.length() == 0 ? NO_PROVIDER : why));
        }
        BitSet before = p.currentThread();
        if (!before.get(cpu)) {
            String set = CpuList.format(before);
            throw new IllegalArgumentException("CPU " + cpu + " is not in this thread's CPU set " + set
                    + "; allowed: one of " + set);
        }
        BitSet one = new BitSet();
        one.set(cpu);
        p.setCurrentThread(one);
        return new Pin(p, before, Thread.currentThread());
    }

    /**
     * Says, without pinning, why {@link #pin} would refuse {@code cpu} on the calling thread.
     *
     * @param cpu the CPU
     * @return why it would be refused (out of range, not in the thread's CPU set, no provider), or empty
     */
    public static Optional<String> refusal(int cpu) {
        if (cpu < 0 || cpu > CpuList.MAX_CPU) {
            return Optional.of("CPU " + cpu + " is out of range; allowed: 0-" + CpuList.MAX_CPU);
        }
        StringBuilder why = new StringBuilder();
        ThreadAffinityProvider p = find(why);
        if (p == null) {
            return Optional.of("cannot pin a thread to CPU " + cpu + ": " + (why.length() == 0 ? NO_PROVIDER : why));
        }
        BitSet set = p.currentThread();
        return set.get(cpu) ? Optional.empty() : Optional.of("CPU " + cpu + " is not in this thread's CPU set "
                + CpuList.format(set) + "; allowed: one of " + CpuList.format(set));
    }

    /**
     * Says, on the calling thread and before any end starts, why {@code --affinity} cannot pin an
     * end to {@code cpu} here ({@link #refusal}), as a usage error.
     *
     * @param end which end, for the message, such as {@code client (the sending end)}
     * @param cpu the CPU; empty for an end left unpinned, which always passes
     * @throws TransferException a usage error naming the end, the CPU and the reason (out of range,
     *     not in the thread's CPU set, no provider)
     */
    public static void requirePinnable(String end, OptionalInt cpu) throws TransferException {
        if (cpu.isPresent()) {
            Optional<String> why = refusal(cpu.getAsInt());
            if (why.isPresent()) {
                throw new TransferException("--affinity cannot pin the " + end + " to CPU " + cpu.getAsInt() + ": "
                        + why.get(), null, true);
            }
        }
    }

    /**
     * @return the calling thread's CPU set as the kernel accounts it ({@code Cpus_allowed_list} of
     *     {@code /proc/thread-self/status}), such as {@code 1}; empty where that file cannot be read
     *     (not Linux, or a kernel before 3.17)
     */
    public static Optional<String> readBack() {
        try {
            for (String line : Files.readAllLines(THREAD_STATUS, StandardCharsets.US_ASCII)) {
                if (line.startsWith(FIELD)) {
                    return Optional.of(line.substring(FIELD.length()).strip());
                }
            }
            return Optional.empty();
        } catch (IOException e) {
            LOG.debug("cannot read {}: {}", THREAD_STATUS, e.toString());
            return Optional.empty();
        }
    }

    private static ThreadAffinityProvider find(StringBuilder why) {
        for (ThreadAffinityProvider p : Providers.load(ThreadAffinityProvider.class, "thread affinity provider")) {
            Optional<String> cause = p.unavailabilityCause();
            if (cause.isEmpty()) {
                return p;
            }
            why.append(why.length() == 0 ? "" : "; ").append(p.name()).append(": ").append(cause.get());
        }
        return null;
    }

    /** A thread pinned to one CPU; closing it, on the same thread, gives back the CPU set it had. */
    public static final class Pin implements AutoCloseable {
        private final ThreadAffinityProvider provider;
        private final BitSet before;
        private final Thread thread;
        private boolean closed;

        private Pin(ThreadAffinityProvider provider, BitSet before, Thread thread) {
            this.provider = provider;
            this.before = before;
            this.thread = thread;
        }

        /** @return the CPU set the thread had before it was pinned, in {@link CpuList} form */
        public String before() {
            return CpuList.format(before);
        }

        /**
         * Gives the thread back its CPU set; a second call does nothing.
         *
         * @throws IllegalStateException when called on another thread than the pinned one
         */
        @Override
        public void close() {
            if (Thread.currentThread() != thread) {
                throw new IllegalStateException("a pin is closed on the thread it pinned (" + thread.getName() + "), not on "
                        + Thread.currentThread().getName());
            }
            if (!closed) {
                closed = true;
                provider.setCurrentThread(before);
            }
        }
    }
}
