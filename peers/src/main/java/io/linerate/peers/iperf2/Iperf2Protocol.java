package io.linerate.peers.iperf2;

import io.linerate.core.Iperf2Peer;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.peers.internal.StreamServerProtocol;

/**
 * An iperf 2 server as a {@link PeerProtocol}: a stream with {@link Iperf2Peer} runs as an
 * {@link Iperf2Stream}, whose result holds both ends' metrics. Registered for
 * {@link java.util.ServiceLoader}.
 */
public final class Iperf2Protocol extends StreamServerProtocol {
    /** The name this protocol goes by in messages. */
    public static final String NAME = "iperf2";

    /** For {@link java.util.ServiceLoader}. */
    public Iperf2Protocol() {
        super(NAME, "an iperf 2 server", Iperf2Peer.class, Iperf2Stream::open);
    }
}
