package io.linerate.peers.agent.client;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.PeerDirection;
import io.linerate.core.PeerSecret;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.RunOnce;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.internal.PeerEndsLookup;
import java.util.Optional;

/**
 * A stream whose spec names linerate's agent ({@link AgentPeer}), as a transport opens it
 * through its peer protocol: run, it connects to the agent and runs this host's ends against the agent's, giving a
 * {@link RemoteStreamResult} (one stream), a {@link RemoteParallelResult} (several) or a
 * {@link RemoteBidirResult} (both directions at once), each with both ends' metrics. Nothing is
 * connected before {@link #run(IntervalListener)}, so the agent's handshake timeout does not run
 * between opening and running.
 */
public final class AgentStream implements Measurement {
    private final TransferSpec spec;
    private final AgentPeer peer;
    private final Clock clock;
    private final PeerEnds ends;
    private final RunOnce life = new RunOnce("stream");

    private AgentStream(TransferSpec spec, AgentPeer peer, Clock clock, PeerEnds ends) {
        this.spec = spec;
        this.peer = peer;
        this.clock = clock;
        this.ends = ends;
    }

    /**
     * @param spec a duration-bound TCP or UDP spec whose endpoint is an {@link AgentPeer}
     * @param clock the time source of every reading
     * @return the stream, not yet connected
     * @throws IllegalArgumentException when the endpoint is no {@link AgentPeer}
     */
    public static AgentStream open(TransferSpec spec, Clock clock) {
        return open(spec, clock, PeerEndsLookup.defaults());
    }

    /**
     * As {@link #open(TransferSpec, Clock)}, with this host's data sockets on {@code ends}.
     *
     * @param ends the ends of the transport this host's data sockets run on
     */
    public static AgentStream open(TransferSpec spec, Clock clock, PeerEnds ends) {
        if (!(spec.endpoint() instanceof AgentPeer peer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not linerate's agent");
        }
        return new AgentStream(spec, peer, clock, java.util.Objects.requireNonNull(ends, "ends"));
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    @Override
    public MeasurementResult run() throws TransferException {
        return run(IntervalListener.NONE);
    }

    /**
     * @param listener this host's interval samples: each stream's, by its index and direction, on
     *     that stream's own thread
     * @throws TransferException when the agent cannot be reached, refuses, or either end fails; the
     *     message names the agent (never its secret)
     */
    @Override
    public MeasurementResult run(IntervalListener listener) throws TransferException {
        life.begin();
        TransferSpec at = spec.toBuilder().endpoint(peer.address()).build();
        Optional<byte[]> secret = peer.secret().map(PeerSecret::bytes);
        if (peer.direction() == PeerDirection.BOTH) {
            return RemoteBidir.run(at, clock, secret, ends, s -> listener.onInterval(0, PeerDirection.FORWARD, s),
                    s -> listener.onInterval(0, PeerDirection.REVERSE, s));
        }
        boolean reverse = peer.direction() == PeerDirection.REVERSE;
        PeerDirection d = peer.direction();
        try (RemoteStreamTransfer t = RemoteStreamTransfer.open(at, clock,
                new RemoteOptions(secret, reverse, peer.streams()), ends)) {
            if (peer.streams() == 1) {
                return t.runBothEnds(s -> listener.onInterval(0, d, s));
            }
            return t.runStreams((i, s) -> listener.onInterval(i, d, s));
        }
    }

    @Override
    public void close() {
        life.close();
    }
}
