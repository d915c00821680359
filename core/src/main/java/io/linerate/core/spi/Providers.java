package io.linerate.core.spi;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The providers of an optional capability on the class path ({@link java.util.ServiceLoader}), as
 * core finds those the native layer offers (CPU counters, thread affinity, {@code TCP_INFO}): through
 * the calling thread's context class loader (core's own where it has none), in class path order,
 * skipping with a warning any that fails to load, and at most {@value #MAX} of them, so that a
 * broken class path cannot loop.
 */
public final class Providers {
    /** At most this many providers are loaded. */
    public static final int MAX = 64;
    private static final Logger LOG = LoggerFactory.getLogger(Providers.class);

    private Providers() {}

    /**
     * @param type the service type
     * @param what what the providers are, for the warning, such as {@code TCP_INFO source}
     * @return the providers that loaded, in class path order
     */
    public static <T> List<T> load(Class<T> type, String what) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        ClassLoader loader = context != null ? context : Providers.class.getClassLoader();
        Iterator<T> it = ServiceLoader.load(type, loader).iterator();
        List<T> out = new ArrayList<>();
        for (int i = 0; i < MAX; i++) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                out.add(it.next());
            } catch (ServiceConfigurationError e) {
                LOG.warn("skipping a {} that failed to load: {}", what, e.getMessage());
            }
        }
        return out;
    }
}
