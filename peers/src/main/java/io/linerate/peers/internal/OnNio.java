package io.linerate.peers.internal;

import io.linerate.core.spi.Transport;
import io.linerate.nio.NioTransport;
import java.util.Optional;

/** The transport the peers' ends on this host run on today: {@value NioTransport#NAME}. */
public final class OnNio {
    private OnNio() {}

    /**
     * @param peer the peer, for the message: "linerate's agent", "an iperf3 server"
     * @param transport the transport the spec was selected with
     * @return why the peer's ends cannot run on that transport, or empty for the NIO transport
     */
    public static Optional<String> reason(String peer, Transport transport) {
        return NioTransport.NAME.equals(transport.name()) ? Optional.empty()
                : Optional.of("this host's ends with " + peer + " run on the " + NioTransport.NAME + " transport, not "
                        + transport.name());
    }
}
