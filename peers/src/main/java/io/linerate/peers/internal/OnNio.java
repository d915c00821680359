package io.linerate.peers.internal;

import io.linerate.core.spi.Transport;
import java.util.Optional;

/**
 * The iperf3 and iperf 2 clients' data sockets are their own, on the JDK's channels with their
 * protocols' datagram headers: they run with the transport that is the JDK's sockets,
 * {@value PeerEndsLookup#DEFAULT_TRANSPORT}, and are refused with any other.
 */
public final class OnNio {
    private OnNio() {}

    /**
     * @param peer the peer, for the message: "an iperf3 server"
     * @param transport the transport the spec was selected with
     * @return why the peer's ends cannot run on that transport, or empty for the JDK's sockets
     */
    public static Optional<String> reason(String peer, Transport transport) {
        return PeerEndsLookup.DEFAULT_TRANSPORT.equals(transport.name()) ? Optional.empty()
                : Optional.of("this host's ends with " + peer + " are the JDK's sockets and run on the "
                        + PeerEndsLookup.DEFAULT_TRANSPORT + " transport, not " + transport.name());
    }
}
