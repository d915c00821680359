package io.linerate.core.spi.cost;

import io.linerate.core.spi.Providers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens per-thread CPU event counters through the first {@link CpuCounterProvider} on the class
 * path that is available. Without one, every {@link #open} says so instead of counting 0.
 */
public final class CpuCounters {
    private static final Logger LOG = LoggerFactory.getLogger(CpuCounters.class);
    /** Why nothing counts when no provider is on the class path. */
    public static final String NO_PROVIDER = "no CPU counter provider on the class path "
            + "(linerate-native provides one over perf_event_open on Linux)";

    private static final java.util.concurrent.atomic.AtomicBoolean PREPARED = new java.util.concurrent.atomic.AtomicBoolean();

    private CpuCounters() {}

    /**
     * Finds the providers and lets them load what they need (a native library), once per JVM, on
     * the calling thread; later calls return at once. A measurement calls it while it sets up, so
     * that the first {@link #open} on a measuring thread costs a system call, not a class path
     * scan and a library load inside the measured window.
     */
    public static void prepare() {
        if (PREPARED.compareAndSet(false, true)) {
            Opened o = open(CpuEvent.INSTRUCTIONS);
            if (o.counter() != null) {
                o.counter().close();
            }
        }
    }

    /**
     * Opens a counter of {@code event} on the calling thread.
     *
     * @param event what to count
     * @return the counter, or why none could be opened
     */
    public static Opened open(CpuEvent event) {
        StringBuilder why = new StringBuilder();
        for (CpuCounterProvider p : Providers.load(CpuCounterProvider.class, "CPU counter provider")) {
            try {
                return new Opened(p.open(event), null);
            } catch (UnsupportedOperationException | LinkageError e) {
                LOG.debug("{} cannot count {}: {}", p.name(), event.label(), e.getMessage());
                why.append(why.length() == 0 ? "" : "; ").append(p.name()).append(": ").append(e.getMessage());
            }
        }
        return new Opened(null, why.length() == 0 ? NO_PROVIDER : why.toString());
    }

    /**
     * A counter, or why there is none.
     *
     * @param counter the counter; null when none could be opened
     * @param unavailable why none could be opened; null when one was
     */
    public record Opened(ThreadCounter counter, String unavailable) {}
}
