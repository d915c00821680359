package io.linerate.peers.internal;

import io.linerate.core.Transports;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.ends.PeerEnds;
import java.util.List;
import java.util.Optional;

/** Finds the ends a peer's run uses on this host: those a transport offers ({@link Transport#peerEnds()}). */
public final class PeerEndsLookup {
    /** The transport the agent's ends run on unless another is named: the JDK's sockets. */
    public static final String DEFAULT_TRANSPORT = "nio";

    private PeerEndsLookup() {}

    /**
     * @param name a transport's name
     * @return that transport's ends for peers
     * @throws IllegalArgumentException when no transport has that name, or it offers no ends for
     *     peers; the message names the transports that do
     */
    public static PeerEnds named(String name) {
        Transport t = Transports.byName(name);
        return t.peerEnds().orElseThrow(() -> new IllegalArgumentException(missing("linerate's agent's ends", t)));
    }

    /** @return the ends of {@value #DEFAULT_TRANSPORT}; see {@link #named} */
    public static PeerEnds defaults() {
        return named(DEFAULT_TRANSPORT);
    }

    /**
     * @param peer the peer, for the message: "linerate's agent"
     * @param transport the transport a spec was selected with
     * @return why that transport cannot run this host's ends with the peer, or empty when it offers them
     */
    public static Optional<String> reason(String peer, Transport transport) {
        return transport.peerEnds().isPresent() ? Optional.empty()
                : Optional.of(missing("this host's ends with " + peer, transport));
    }

    private static String missing(String whose, Transport transport) {
        List<String> offering = Transports.all().stream().filter(t -> t.peerEnds().isPresent()).map(Transport::name)
                .toList();
        return "the " + transport.name() + " transport offers no ends for a peer's run, so " + whose
                + " cannot run on it; transports that offer them: "
                + (offering.isEmpty() ? "none on the class path (add linerate-transport-nio)" : String.join(", ", offering));
    }
}
