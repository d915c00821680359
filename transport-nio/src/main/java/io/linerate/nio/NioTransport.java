package io.linerate.nio;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.PeerProtocols;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.nio.internal.LatencyMeasurement;
import io.linerate.nio.internal.NioPeerEnds;
import io.linerate.nio.internal.NioStreamTransfer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Java NIO: TCP and UDP streams ({@link TransferSpec}, opened as a {@link io.linerate.core.Transfer}),
 * ping-pong over TCP, UDP, Unix stream sockets or pipes ({@link PingPongSpec}, whose run gives a
 * {@link io.linerate.core.latency.PingPongResult}) and TCP request/response ({@link RrSpec}, giving
 * an {@link io.linerate.core.latency.RrResult}), with both ends in this JVM over the loopback address
 * of the spec's family (127.0.0.1 or ::1) of the network namespace the JVM runs in. A spec whose
 * endpoint is a peer on another host ({@link Endpoint.Remote}, {@link io.linerate.core.AgentPeer},
 * {@link io.linerate.core.Iperf3Peer}, {@link io.linerate.core.Iperf2Peer}) opens through the
 * {@link PeerProtocol} that reaches it ({@link PeerProtocols}, found on the class path:
 * {@code linerate-peers}), which runs this host's ends on this transport.
 * Registered for {@link java.util.ServiceLoader} under the name {@value #NAME}.
 */
public final class NioTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "nio";
    private static final PeerEnds ENDS = new NioPeerEnds(NAME);

    @Override
    public String name() {
        return NAME;
    }

    /**
     * @return the ends the peers run on this transport: JDK sockets with the stream engine's loops and
     *     the latency runners, as client and as server (linerate's agent)
     */
    @Override
    public Optional<PeerEnds> peerEnds() {
        return Optional.of(ENDS);
    }

    /** @return {@link Pattern#STREAM}, {@link Pattern#PING_PONG} and {@link Pattern#REQUEST_RESPONSE} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM, Pattern.PING_PONG, Pattern.REQUEST_RESPONSE);
    }

    /** The one path NIO has: a batch of one datagram per call. */
    private static final StreamIo ONE_CALL_PER_MESSAGE = new StreamIo(1, false, false, false);

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (!patterns().contains(m.pattern())) {
            return Optional.of("the nio transport runs " + Pattern.STREAM.label() + ", " + Pattern.PING_PONG.label()
                    + " and " + Pattern.REQUEST_RESPONSE.label() + ", not " + m.pattern().label());
        }
        if (!(m.endpoint() instanceof Endpoint.Loopback)) {
            Optional<PeerProtocol> peer = PeerProtocols.of(m.endpoint());
            if (peer.isEmpty()) {
                return Optional.of(PeerProtocols.missing(m.endpoint()));
            }
            Optional<String> reason = peer.get().unsupportedReason(m, this);
            if (reason.isPresent()) {
                return reason;
            }
        }
        if (!(m instanceof TransferSpec) && !(m.endpoint() instanceof Endpoint.Loopback)
                && !(m.endpoint() instanceof Endpoint.Remote) && !(m.endpoint() instanceof AgentPeer)) {
            return Optional.of("a " + m.pattern().label() + " spec reaches linerate's agent by AgentPeer or "
                    + "Endpoint.remote, not " + m.endpoint().getClass().getSimpleName() + " " + m.endpoint());
        }
        if (m instanceof TransferSpec spec && spec.protocol() != Protocol.TCP && spec.protocol() != Protocol.UDP) {
            return Optional.of("the nio transport moves TCP and UDP streams only, not " + spec.protocol().label());
        }
        if (m instanceof TransferSpec spec && !spec.io().isDefault() && !spec.io().equals(ONE_CALL_PER_MESSAGE)) {
            return Optional.of("io " + spec.io() + " is not on the nio transport: Java NIO makes one system call per "
                    + "datagram or write; the native transport (--transport native) runs batches, GSO/GRO, "
                    + "sendfile and MSG_TRUNC");
        }
        if (m instanceof PingPongSpec spec) {
            if (spec.bindToDevice().isPresent()) {
                return Optional.of("bindtodev " + spec.bindToDevice().get() + " is not on the nio transport: Java NIO "
                        + "cannot set SO_BINDTODEVICE; the native transport (--transport native) binds the sockets to "
                        + "an interface");
            }
            return spec.protocol().unsupportedReason()
                    .map(r -> r + "; the native transport (--transport native) runs it");
        }
        return Optional.empty();
    }

    /**
     * @return a {@link io.linerate.core.Transfer} for a stream spec; for a ping-pong or
     *     request/response spec a measurement that sets up, runs and releases both ends in
     *     {@link Measurement#run()}; for a spec with a peer what its {@link PeerProtocol} opens
     */
    @Override
    public Measurement open(MeasurementSpec spec, Clock clock) throws TransferException {
        unsupportedReason(spec).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (!(spec.endpoint() instanceof Endpoint.Loopback)) {
            PeerProtocol peer = PeerProtocols.of(spec.endpoint())
                    .orElseThrow(() -> new IllegalArgumentException(PeerProtocols.missing(spec.endpoint())));
            return peer.open(spec, clock, this);
        }
        return spec instanceof TransferSpec t ? NioStreamTransfer.open(t, clock) : LatencyMeasurement.of(spec, clock);
    }
}
