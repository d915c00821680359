package io.linerate.core;

import java.util.Objects;
import java.util.Optional;

/**
 * A stream's far end on an unmodified iperf 2 server ({@code iperf -s}, {@code iperf -s -u}) at
 * {@code address}: linerate sends (iperf 2's client runs forward only), and for UDP the result holds
 * the server's report too; iperf 2's TCP server sends none.
 *
 * @param address the server, iperf 2's default port being 5001
 * @param header the UDP datagram header to send; ignored for TCP
 */
public record Iperf2Peer(Endpoint.Remote address, Iperf2UdpHeader header) implements Endpoint {
    /** Checks both are given. */
    public Iperf2Peer {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(header, "header");
    }

    /** @return a peer sending the current header, {@link Iperf2UdpHeader#SEQ64} */
    public static Iperf2Peer at(Endpoint.Remote address) {
        return new Iperf2Peer(address, Iperf2UdpHeader.SEQ64);
    }

    @Override
    public Optional<Endpoint.Remote> remoteAddress() {
        return Optional.of(address);
    }

    /** @return the server's address, {@code host:port} */
    @Override
    public String toString() {
        return address.toString();
    }
}
