package io.linerate.core;
import io.linerate.core.spi.Transport;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds {@link Transport} implementations on the class path with {@link ServiceLoader}, through the
 * calling thread's context class loader when it has one, else the loader of linerate's core. A provider
 * that fails to load (a missing class, a constructor that throws) is reported in
 * {@link Discovery#problems()} and leaves the others usable.
 */
public final class Transports {
    private static final Logger LOG = LoggerFactory.getLogger(Transports.class);
    /** More provider entries than any class path holds: ends the walk if an iterator never does. */
    private static final int MAX_PROVIDERS = 1024;

    private Transports() {}

    /**
     * What one look-up found.
     *
     * @param transports every transport that loaded, in class-path order, available or not
     * @param problems one line per provider that failed to load, naming it and the cause
     */
    public record Discovery(List<Transport> transports, List<String> problems) {
        /** Copies both lists. */
        public Discovery {
            transports = List.copyOf(transports);
            problems = List.copyOf(problems);
        }
    }

    /** @return every transport that loaded and every provider that did not */
    public static Discovery discover() {
        List<Transport> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Iterator<Transport> it = ServiceLoader.load(Transport.class, loader()).iterator();
        // ServiceLoader's iterator throws ServiceConfigurationError for a provider it cannot load and,
        // as its contract says, goes on with the next provider on the following call.
        for (int i = 0; i < MAX_PROVIDERS; i++) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                Transport t = it.next();
                found.add(t);
                LOG.debug("found transport {} ({})", t.name(), t.getClass().getName());
            } catch (ServiceConfigurationError e) {
                String problem = describe(e);
                LOG.warn("skipping a transport provider that failed to load: {}", problem);
                problems.add(problem);
            }
        }
        return new Discovery(found, problems);
    }

    /** @return every transport that loaded, in class-path order, available or not */
    public static List<Transport> all() {
        return discover().transports();
    }

    /**
     * @param name a transport name such as {@code nio}
     * @return the transport, which may be unavailable on this host (see {@link Transport#isAvailable()})
     * @throws IllegalArgumentException naming the value and the transports that are present
     */
    public static Transport byName(String name) {
        Discovery d = discover();
        for (Transport t : d.transports()) {
            if (t.name().equals(name)) {
                return t;
            }
        }
        throw new IllegalArgumentException("no transport named '" + name + "'; available: "
                + (d.transports().isEmpty() ? "none (add a transport module such as linerate-transport-nio)"
                        : String.join(", ", d.transports().stream().map(Transport::name).toList()))
                + problemsSuffix(d));
    }

    /**
     * @param spec a validated spec
     * @return the first available transport that supports it
     * @throws IllegalArgumentException listing each transport's reason (unsupported or unavailable)
     *     when none can run it
     */
    public static Transport forSpec(MeasurementSpec spec) {
        Discovery d = discover();
        List<String> reasons = new ArrayList<>();
        for (Transport t : d.transports()) {
            Optional<String> reason = reasonAgainst(t, spec);
            if (reason.isPresent()) {
                reasons.add(t.name() + ": " + reason.get());
                LOG.debug("transport {} cannot run {}: {}", t.name(), spec, reason.get());
                continue;
            }
            Optional<String> cause = t.unavailabilityCause();
            if (cause.isPresent()) {
                reasons.add(t.name() + ": unavailable: " + cause.get());
                LOG.debug("transport {} is unavailable: {}", t.name(), cause.get());
                continue;
            }
            LOG.debug("transport {} runs {}", t.name(), spec);
            return t;
        }
        throw new IllegalArgumentException("no transport can run " + describe(spec) + "; "
                + (reasons.isEmpty() ? "no transport is on the class path" : String.join("; ", reasons))
                + problemsSuffix(d));
    }

    /**
     * @param name a transport name, or null to take the first available transport that supports the spec
     * @param spec a validated spec
     * @return the transport to open the spec with
     * @throws IllegalArgumentException when no transport has that name, or it does not support the
     *     spec, or it is unavailable on this host, saying which
     */
    public static Transport select(String name, MeasurementSpec spec) {
        if (name == null) {
            return forSpec(spec);
        }
        Transport t = byName(name);
        Optional<String> reason = reasonAgainst(t, spec);
        if (reason.isPresent()) {
            throw new IllegalArgumentException("transport '" + name + "' cannot run " + describe(spec) + ": " + reason.get());
        }
        Optional<String> cause = t.unavailabilityCause();
        if (cause.isPresent()) {
            throw new IllegalArgumentException("transport '" + name + "' is unavailable on this host: " + cause.get());
        }
        return t;
    }

    /** A stream spec's one-line description; of another pattern, its name (their records print every field). */
    private static String describe(MeasurementSpec spec) {
        return spec instanceof TransferSpec ? spec.toString() : "this " + spec.pattern().label() + " spec";
    }

    /** Why {@code t} cannot run {@code spec}: its pattern first, then the transport's own reason. */
    private static Optional<String> reasonAgainst(Transport t, MeasurementSpec spec) {
        if (!t.patterns().contains(spec.pattern())) {
            return Optional.of("runs " + t.patterns().stream().map(Pattern::label).sorted().toList()
                    + ", not " + spec.pattern().label());
        }
        return t.unsupportedReason(spec);
    }

    /** The thread's context class loader when set (containers, plugin hosts), else linerate's own. */
    private static ClassLoader loader() {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : Transports.class.getClassLoader();
    }

    private static String problemsSuffix(Discovery d) {
        return d.problems().isEmpty() ? "" : "; providers that failed to load: " + String.join("; ", d.problems());
    }

    private static String describe(ServiceConfigurationError e) {
        Throwable cause = e.getCause();
        return cause == null ? e.getMessage() : e.getMessage() + " (" + cause + ")";
    }
}
