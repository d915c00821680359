package io.linerate.core.spi;

import io.linerate.core.Endpoint;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds the {@link PeerProtocol} of an endpoint with {@link ServiceLoader}, through the calling
 * thread's context class loader when it has one, else the loader of linerate's core, as
 * {@link io.linerate.core.Transports} finds transports. A provider that fails to load is logged
 * and skipped.
 */
public final class PeerProtocols {
    private static final Logger LOG = LoggerFactory.getLogger(PeerProtocols.class);
    /** More provider entries than any class path holds: ends the walk if an iterator never does. */
    private static final int MAX_PROVIDERS = 1024;

    private PeerProtocols() {}

    /**
     * @param endpoint a spec's endpoint
     * @return the first protocol on the class path that reaches it; empty for {@link Endpoint.Loopback}
     *     and when none does (add {@code linerate-peers})
     */
    public static Optional<PeerProtocol> of(Endpoint endpoint) {
        if (endpoint instanceof Endpoint.Loopback) {
            return Optional.empty();
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        var it = ServiceLoader.load(PeerProtocol.class, context != null ? context : PeerProtocols.class.getClassLoader())
                .iterator();
        for (int i = 0; i < MAX_PROVIDERS; i++) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                PeerProtocol p = it.next();
                if (p.reaches(endpoint)) {
                    return Optional.of(p);
                }
            } catch (ServiceConfigurationError e) {
                LOG.warn("skipping a peer protocol provider that failed to load: {}", e.getMessage());
            }
        }
        return Optional.empty();
    }

    /**
     * @param endpoint a spec's endpoint that is not {@link Endpoint.Loopback}
     * @return why no protocol on the class path reaches it
     */
    public static String missing(Endpoint endpoint) {
        return "no peer protocol on the class path reaches " + endpoint.getClass().getSimpleName() + " " + endpoint
                + ": add linerate-peers";
    }
}
