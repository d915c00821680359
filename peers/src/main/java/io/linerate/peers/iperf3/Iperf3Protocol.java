package io.linerate.peers.iperf3;

import io.linerate.core.Iperf3Peer;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.peers.internal.StreamServerProtocol;

/**
 * An iperf3 server as a {@link PeerProtocol}: a stream with {@link Iperf3Peer} runs as an
 * {@link Iperf3Stream}, whose result holds both ends' metrics. Registered for
 * {@link java.util.ServiceLoader}.
 */
public final class Iperf3Protocol extends StreamServerProtocol {
    /** The name this protocol goes by in messages. */
    public static final String NAME = "iperf3";

    /** For {@link java.util.ServiceLoader}. */
    public Iperf3Protocol() {
        super(NAME, "an iperf3 server", Iperf3Peer.class, Iperf3Stream::open);
    }
}
