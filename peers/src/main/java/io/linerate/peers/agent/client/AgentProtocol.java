package io.linerate.peers.agent.client;

import io.linerate.core.Affinity;
import io.linerate.core.AgentPeer;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.PeerSecret;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.internal.PeerEndsLookup;
import java.util.Optional;

/**
 * linerate's agent as a {@link PeerProtocol}: a stream with {@link AgentPeer} (its secret, direction
 * and streams) runs as an {@link AgentStream}; a stream with {@link Endpoint.Remote} as a
 * {@link RemoteStreamTransfer} (forward, without a secret); a TCP or UDP ping-pong or a
 * request/response run as a {@link RemoteLatency}, and a raw-frame run as a {@link RemoteRaw}, each
 * with the {@link AgentPeer}'s secret (none with {@link Endpoint.Remote}). Streams, ping-pong and
 * request/response run this host's ends on the nio transport; a raw-frame run its one end on the
 * transport it was selected with, which runs raw frames (afpacket). Registered for
 * {@link java.util.ServiceLoader}.
 */
public final class AgentProtocol implements PeerProtocol {
    /** The name this protocol goes by in messages. */
    public static final String NAME = "agent";

    @Override
    public String name() {
        return NAME;
    }

    /** @return true for {@link AgentPeer} and {@link Endpoint.Remote} */
    @Override
    public boolean reaches(Endpoint endpoint) {
        return endpoint instanceof AgentPeer || endpoint instanceof Endpoint.Remote;
    }

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m, Transport transport) {
        if (m instanceof RawTransferSpec) {
            return transport.patterns().contains(Pattern.RAW_FRAMES) ? Optional.empty()
                    : Optional.of("this host's end of raw frames with linerate's agent runs on a transport that runs "
                            + Pattern.RAW_FRAMES.label() + ", not " + transport.name());
        }
        Optional<String> noEnds = PeerEndsLookup.reason("linerate's agent", transport);
        if (noEnds.isPresent()) {
            return noEnds;
        }
        if (m instanceof TransferSpec stream && stream.endpoint() instanceof AgentPeer peer
                && stream.bound().kind() != Bound.Kind.DURATION) {
            return Optional.of("a stream with linerate's agent at " + peer + " is bounded by a duration, not "
                    + stream.bound() + ": the two ends agree on when to stop by time");
        }
        if (m instanceof TransferSpec stream && stream.endpoint() instanceof Endpoint.Remote peer
                && stream.bound().kind() != Bound.Kind.DURATION) {
            return Optional.of("a stream with remote peer " + peer + " is bounded by a duration, not "
                    + stream.bound() + ": the two ends agree on when to stop by time");
        }
        if (m instanceof TransferSpec stream && stream.affinity().serverCpu().isPresent()) {
            return Optional.of("the server's CPU of affinity " + stream.affinity().label() + " is not sent to the "
                    + "agent of a stream: give only this host's CPU (" + Affinity.ANY + " for the server), and pin "
                    + "the agent itself (taskset -c " + stream.affinity().serverCpu().getAsInt() + " linerate serve)");
        }
        if (m instanceof PingPongSpec p && p.protocol() != PingPongProtocol.TCP && p.protocol() != PingPongProtocol.UDP) {
            return Optional.of("ping-pong over " + p.protocol().label() + " does not cross hosts: remote peer "
                    + p.endpoint() + " echoes tcp and udp");
        }
        return Optional.empty();
    }

    @Override
    public Measurement open(MeasurementSpec spec, Clock clock, Transport transport) throws TransferException {
        unsupportedReason(spec, transport).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (spec instanceof RawTransferSpec raw) {
            return RemoteRaw.of(raw, clock, secretOf(spec), Optional.of(transport));
        }
        if (spec instanceof TransferSpec t) {
            // this host's end is pinned once the agent's is set up: say first when it cannot be
            ThreadAffinity.requirePinnable("client (this host's end)", t.affinity().clientCpu());
        }
        PeerEnds ends = transport.peerEnds().orElseThrow();
        if (spec instanceof TransferSpec t && t.endpoint() instanceof AgentPeer) {
            return AgentStream.open(t, clock, ends);
        }
        if (spec instanceof TransferSpec t) {
            return RemoteStreamTransfer.open(t, clock, RemoteOptions.defaults(), ends);
        }
        return RemoteLatency.of(spec, clock, secretOf(spec), ends);
    }

    /** @return the {@link AgentPeer}'s secret, forward; none for {@link Endpoint.Remote} */
    private static RemoteOptions secretOf(MeasurementSpec spec) {
        Optional<byte[]> secret = spec.endpoint() instanceof AgentPeer peer ? peer.secret().map(PeerSecret::bytes)
                : Optional.empty();
        return new RemoteOptions(secret, false);
    }
}
