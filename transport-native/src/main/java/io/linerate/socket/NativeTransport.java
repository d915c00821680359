package io.linerate.socket;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Muxer;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.PeerProtocols;
import io.linerate.core.spi.Transport;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.socket.internal.NativePeerEnds;
import io.linerate.socket.internal.NativePingPong;
import io.linerate.socket.internal.NativeRr;
import io.linerate.socket.internal.NativeStreamTransfer;
import io.linerate.socket.internal.NativeUdpTransfer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Linux sockets through JNI ({@code liblinerate-socket.so}): TCP and UDP streams ({@link TransferSpec},
 * forward, both ends in this JVM over the loopback address of the spec's family) on core's stream
 * engine, as the {@code nio} transport runs them, but for TCP with the MSS read from each end's socket
 * ({@code TCP_MAXSEG}, {@link io.linerate.core.TcpMss#read}) and the sender's {@code TCP_INFO}
 * ({@link TcpInfo}) in the result, and for UDP with datagrams moved in {@code sendmmsg(2)} and
 * {@code recvmmsg(2)} batches, or one call each, or with UDP GSO and GRO, as the spec's
 * {@link io.linerate.core.StreamIo} asks, and the calls that ran in the result
 * ({@link io.linerate.core.DataPath}). A TCP or UDP stream with linerate's agent ({@link AgentPeer},
 * {@link Endpoint.Remote}) opens through the {@link PeerProtocol} that reaches it
 * ({@link PeerProtocols}, found on the class path: {@code linerate-peers}), which runs this host's
 * end on this transport's {@link #peerEnds() ends}; the agent runs its own on them with
 * {@code serve --transport native}, and its ends of a TCP or UDP ping-pong (the echo end) and of
 * request/response (the server) too. Ping-pongs ({@link PingPongSpec}, both ends in this JVM) run
 * over TCP, UDP and Unix-domain datagram sockets (which Java NIO lacks), with SO_BINDTODEVICE
 * ({@link PingPongSpec#bindToDevice()}), on core's ping-pong engine; a TCP or UDP ping-pong with
 * linerate's agent runs this host's measuring end here. Request/response ({@link RrSpec}: TCP_RR
 * and TCP_CRR, closed loop or open loop at a rate, over one or more flows) runs its flows on native
 * sockets, against a server in this JVM or the agent's, on core's coordinator. Registered for
 * {@link java.util.ServiceLoader} under the name
 * {@value #NAME}; select it by name, as NIO stays the portable default.
 */
public final class NativeTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "native";
    private static final Set<PingPongProtocol> PING_PONG_PROTOCOLS =
            EnumSet.of(PingPongProtocol.TCP, PingPongProtocol.UDP, PingPongProtocol.UNIX_DATAGRAM);
    private static final PeerEnds ENDS = new NativePeerEnds(NAME);

    @Override
    public String name() {
        return NAME;
    }

    /** @return why {@code liblinerate-socket.so} cannot be loaded here (not Linux, another architecture, no library), or empty */
    @Override
    public Optional<String> unavailabilityCause() {
        return NativeSocket.unavailabilityCause();
    }

    /**
     * @return the ends the peers run on this transport when its library loads here: TCP and UDP
     *     streams on native sockets, as client and as server (linerate's agent); both ends of a TCP
     *     or UDP ping-pong and of request/response; empty where it cannot load
     */
    @Override
    public Optional<PeerEnds> peerEnds() {
        return unavailabilityCause().isPresent() ? Optional.empty() : Optional.of(ENDS);
    }

    /**
     * @return why this transport cannot run the spec yet, naming the spec's field: its pattern
     *     (raw frames), its protocol (a unix_stream or pipe ping-pong), its endpoint (iperf3 or
     *     iperf 2), a multicast ping-pong, a ping-pong muxer other than blocking, a
     *     request/response muxer other than selector, or why the agent cannot run it
     */
    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (m instanceof PingPongSpec p) {
            return pingPongReason(p).or(() -> peerReason(p));
        }
        if (m instanceof RrSpec r) {
            return NativeRr.refusal(r).or(() -> peerReason(r));
        }
        if (!(m instanceof TransferSpec spec)) {
            return Optional.of("pattern " + m.pattern().label() + " is not on the native transport: it runs "
                    + Pattern.STREAM.label() + ", " + Pattern.PING_PONG.label() + " and "
                    + Pattern.REQUEST_RESPONSE.label());
        }
        if (spec.endpoint() instanceof Endpoint.Loopback) {
            return Optional.empty();
        }
        if (!(spec.endpoint() instanceof AgentPeer) && !(spec.endpoint() instanceof Endpoint.Remote)) {
            return Optional.of("endpoint " + spec.endpoint() + " is not yet on the native transport: it runs both ends "
                    + "in this JVM over loopback, or one end of a stream with linerate's agent");
        }
        Optional<PeerProtocol> peer = PeerProtocols.of(spec.endpoint());
        if (peer.isEmpty()) {
            return Optional.of(PeerProtocols.missing(spec.endpoint()));
        }
        return peer.get().unsupportedReason(spec, this);
    }

    private static Optional<String> pingPongReason(PingPongSpec p) {
        if (!PING_PONG_PROTOCOLS.contains(p.protocol())) {
            return Optional.of("protocol " + p.protocol().label() + " is not on the native transport's ping-pong: it runs "
                    + "tcp, udp and unix_datagram; the nio transport runs " + p.protocol().label());
        }
        if (p.multicast().isPresent()) {
            return Optional.of("mcast is not yet on the native transport; the nio transport runs a multicast ping-pong");
        }
        String wait = " is not on the native transport's ping-pong: its ends wait in a blocking recv(2)";
        if (p.clientMuxer() != Muxer.BLOCKING) {
            return Optional.of("muxer " + p.clientMuxer().label() + wait + "; allowed: blocking");
        }
        if (p.serverMuxer() != Muxer.BLOCKING) {
            return Optional.of("server muxer " + p.serverMuxer().label() + wait + "; allowed: blocking");
        }
        return Optional.empty();
    }

    /** @return empty in this JVM; else why linerate's agent (the spec's peer) cannot run it on this transport */
    private Optional<String> peerReason(MeasurementSpec m) {
        if (m.endpoint() instanceof Endpoint.Loopback) {
            return Optional.empty();
        }
        if (!(m.endpoint() instanceof AgentPeer) && !(m.endpoint() instanceof Endpoint.Remote)) {
            return Optional.of("a " + m.pattern().label() + " spec reaches linerate's agent by AgentPeer or "
                    + "Endpoint.remote, not " + m.endpoint().getClass().getSimpleName() + " " + m.endpoint());
        }
        Optional<PeerProtocol> peer = PeerProtocols.of(m.endpoint());
        if (peer.isEmpty()) {
            return Optional.of(PeerProtocols.missing(m.endpoint()));
        }
        return peer.get().unsupportedReason(m, this);
    }

    /**
     * @return for a stream, a {@link io.linerate.core.Transfer} whose ends are bound and connected; for
     *     a stream, ping-pong or request/response with the agent what its {@link PeerProtocol} opens;
     *     for a ping-pong or request/response in this JVM, a measurement that sets up, runs and
     *     releases both ends in {@link Measurement#run()}
     * @throws TransferException if the library cannot be loaded or the sockets cannot be set up
     *     (a port in use is a usage error), or the agent cannot be reached; nothing is left open
     * @throws IllegalArgumentException if {@link #unsupportedReason} is not empty for the spec
     */
    @Override
    public Measurement open(MeasurementSpec spec, Clock clock) throws TransferException {
        unsupportedReason(spec).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        Optional<String> cause = unavailabilityCause();
        if (cause.isPresent()) {
            throw new TransferException("the native transport is unavailable: " + cause.get(), null);
        }
        if (spec instanceof PingPongSpec p && p.endpoint() instanceof Endpoint.Loopback) {
            return NativePingPong.of(p, clock);
        }
        if (spec instanceof RrSpec r && r.endpoint() instanceof Endpoint.Loopback) {
            return NativeRr.of(r, clock);
        }
        if (!(spec.endpoint() instanceof Endpoint.Loopback)) {
            PeerProtocol peer = PeerProtocols.of(spec.endpoint())
                    .orElseThrow(() -> new IllegalArgumentException(PeerProtocols.missing(spec.endpoint())));
            return peer.open(spec, clock, this);
        }
        TransferSpec stream = (TransferSpec) spec;
        return stream.protocol() == Protocol.UDP ? NativeUdpTransfer.open(stream, clock)
                : NativeStreamTransfer.open(stream, clock);
    }

    /** @return {@link Pattern#STREAM}, {@link Pattern#PING_PONG} and {@link Pattern#REQUEST_RESPONSE} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM, Pattern.PING_PONG, Pattern.REQUEST_RESPONSE);
    }
}
