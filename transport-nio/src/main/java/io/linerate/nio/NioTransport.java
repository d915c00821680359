package io.linerate.nio;

import io.linerate.core.AgentPeer;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Transport;
import io.linerate.nio.agent.AgentStream;
import io.linerate.nio.agent.RemoteLatency;
import io.linerate.nio.agent.RemoteOptions;
import io.linerate.nio.agent.RemoteStreamTransfer;
import io.linerate.nio.internal.NioStreamTransfer;
import io.linerate.nio.iperf2.Iperf2Stream;
import io.linerate.nio.iperf3.Iperf3Stream;
import io.linerate.nio.latency.internal.LatencyMeasurement;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Java NIO: TCP and UDP streams ({@link TransferSpec}, opened as a {@link io.linerate.core.Transfer}),
 * ping-pong over TCP, UDP, Unix stream sockets or pipes ({@link PingPongSpec}, whose run gives a
 * {@link io.linerate.nio.latency.PingPongResult}) and TCP request/response ({@link RrSpec}, giving
 * an {@link io.linerate.nio.latency.RrResult}), with both ends in this JVM over the loopback address
 * of the spec's family (127.0.0.1 or ::1) of the network namespace the JVM runs in. A stream whose
 * endpoint is {@link Endpoint.Remote} runs this end here and the other in the peer agent there
 * ({@link RemoteStreamTransfer}: forward, without a secret; use it directly for {@code --reverse}
 * or a secret, and {@link io.linerate.nio.agent.RemoteUdpTrial} for a rate search with them); a TCP or UDP ping-pong or a request/response run with a remote endpoint runs its
 * client ends here against the agent's echo end or server ({@link RemoteLatency}; use it directly
 * for a secret). A stream whose endpoint names its peer opens as a {@link Measurement} whose
 * {@link Measurement#run(io.linerate.core.IntervalListener)} gives the peer's result with both ends'
 * metrics: linerate's agent with its secret, direction and streams ({@link AgentPeer}, run by
 * {@link AgentStream}), an iperf3 server ({@link Iperf3Peer}, {@link Iperf3Stream}) or an iperf 2
 * server ({@link Iperf2Peer}, {@link Iperf2Stream}).
 * Registered for {@link java.util.ServiceLoader} under the name {@value #NAME}.
 */
public final class NioTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "nio";

    @Override
    public String name() {
        return NAME;
    }

    /** @return {@link Pattern#STREAM}, {@link Pattern#PING_PONG} and {@link Pattern#REQUEST_RESPONSE} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM, Pattern.PING_PONG, Pattern.REQUEST_RESPONSE);
    }

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (!patterns().contains(m.pattern())) {
            return Optional.of("the nio transport runs " + Pattern.STREAM.label() + ", " + Pattern.PING_PONG.label()
                    + " and " + Pattern.REQUEST_RESPONSE.label() + ", not " + m.pattern().label());
        }
        if (m instanceof TransferSpec stream && stream.endpoint() instanceof AgentPeer peer
                && stream.bound().kind() != Bound.Kind.DURATION) {
            return Optional.of("a stream with linerate's agent at " + peer + " is bounded by a duration, not "
                    + stream.bound() + ": the two ends agree on when to stop by time");
        }
        if (m instanceof TransferSpec stream && stream.endpoint() instanceof Endpoint.Remote peer) {
            if (stream.bound().kind() != Bound.Kind.DURATION) {
                return Optional.of("a stream with remote peer " + peer + " is bounded by a duration, not "
                        + stream.bound() + ": the two ends agree on when to stop by time");
            }
        } else if (m instanceof PingPongSpec p && p.endpoint() instanceof Endpoint.Remote peer
                && p.protocol() != PingPongProtocol.TCP && p.protocol() != PingPongProtocol.UDP) {
            return Optional.of("ping-pong over " + p.protocol().label() + " does not cross hosts: remote peer " + peer
                    + " echoes tcp and udp");
        }
        if (!(m instanceof TransferSpec) && !(m.endpoint() instanceof Endpoint.Loopback)
                && !(m.endpoint() instanceof Endpoint.Remote)) {
            return Optional.of("a " + m.pattern().label() + " spec reaches linerate's agent by Endpoint.remote, not "
                    + m.endpoint().getClass().getSimpleName() + " " + m.endpoint());
        }
        if (m instanceof TransferSpec spec && spec.protocol() != Protocol.TCP && spec.protocol() != Protocol.UDP) {
            return Optional.of("the nio transport moves TCP and UDP streams only, not " + spec.protocol().label());
        }
        if (m instanceof PingPongSpec spec) {
            return spec.protocol().unsupportedReason();
        }
        return Optional.empty();
    }

    /**
     * @return a {@link io.linerate.core.Transfer} for a stream spec; for a ping-pong or
     *     request/response spec a measurement that sets up, runs and releases both ends in
     *     {@link Measurement#run()}
     */
    @Override
    public Measurement open(MeasurementSpec spec, Clock clock) throws TransferException {
        unsupportedReason(spec).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (spec instanceof TransferSpec t && t.endpoint() instanceof AgentPeer) {
            return AgentStream.open(t, clock);
        }
        if (spec instanceof TransferSpec t && t.endpoint() instanceof Iperf3Peer) {
            return Iperf3Stream.open(t);
        }
        if (spec instanceof TransferSpec t && t.endpoint() instanceof Iperf2Peer) {
            return Iperf2Stream.open(t);
        }
        if (spec instanceof TransferSpec t) {
            return t.endpoint() instanceof Endpoint.Remote
                    ? RemoteStreamTransfer.open(t, clock, RemoteOptions.defaults())
                    : NioStreamTransfer.open(t, clock);
        }
        return spec.endpoint() instanceof Endpoint.Remote ? RemoteLatency.of(spec, clock, RemoteOptions.defaults())
                : LatencyMeasurement.of(spec, clock);
    }
}
