package io.linerate.socket;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Muxer;
import io.linerate.core.Pattern;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Transport;
import io.linerate.socket.internal.NativePingPong;
import io.linerate.socket.internal.NativeStreamTransfer;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * Linux sockets through JNI ({@code liblinerate-socket.so}): TCP streams ({@link TransferSpec},
 * forward, both ends in this JVM over the loopback address of the spec's family) on core's stream
 * engine, as the {@code nio} transport runs them, but with the MSS read from each end's socket
 * ({@code TCP_MAXSEG}, {@link io.linerate.core.TcpMss#read}) and the sender's {@code TCP_INFO}
 * ({@link TcpInfo}) in the result. Registered for {@link java.util.ServiceLoader} under the name
 * {@value #NAME}; select it by name, as NIO stays the portable default.
 */
public final class NativeTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "native";
    private static final Set<PingPongProtocol> PING_PONG_PROTOCOLS =
            EnumSet.of(PingPongProtocol.TCP, PingPongProtocol.UDP, PingPongProtocol.UNIX_DATAGRAM);

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
     * @return why this transport cannot run the spec yet, naming the spec's field: its pattern
     *     (request/response), its protocol (a UDP stream; a unix_stream or pipe ping-pong), its
     *     endpoint (a remote host, the agent, iperf3 or iperf 2), a multicast ping-pong, or a
     *     ping-pong muxer other than blocking
     */
    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (m instanceof PingPongSpec p) {
            return pingPongReason(p);
        }
        if (!(m instanceof TransferSpec spec)) {
            return Optional.of("pattern " + m.pattern().label() + " is not yet on the native transport: it runs "
                    + Pattern.STREAM.label() + " and " + Pattern.PING_PONG.label() + " only");
        }
        if (spec.protocol() != Protocol.TCP) {
            return Optional.of("protocol " + spec.protocol().label() + " is not yet on the native transport: it moves TCP streams only");
        }
        if (!(spec.endpoint() instanceof Endpoint.Loopback)) {
            return Optional.of("endpoint " + spec.endpoint() + " is not yet on the native transport: it runs both ends "
                    + "in this JVM over loopback");
        }
        return Optional.empty();
    }

    private static Optional<String> pingPongReason(PingPongSpec p) {
        if (!PING_PONG_PROTOCOLS.contains(p.protocol())) {
            return Optional.of("protocol " + p.protocol().label() + " is not on the native transport's ping-pong: it runs "
                    + "tcp, udp and unix_datagram; the nio transport runs " + p.protocol().label());
        }
        if (!(p.endpoint() instanceof Endpoint.Loopback)) {
            return Optional.of("endpoint " + p.endpoint() + " is not yet on the native transport: it runs both ends "
                    + "of a ping-pong in this JVM");
        }
        if (p.multicast().isPresent()) {
            return Optional.of("mcast is not yet on the native transport; the nio transport runs a multicast ping-pong");
        }
        if (p.clientMuxer() != Muxer.BLOCKING || p.serverMuxer() != Muxer.BLOCKING || p.idle().isPresent()) {
            return Optional.of("muxer " + p.clientMuxer().label() + " (server " + p.serverMuxer().label() + ") is not on "
                    + "the native transport: its ends wait in poll(2), as blocking sockets do; allowed: blocking");
        }
        return Optional.empty();
    }

    /**
     * @return for a stream, a {@link io.linerate.core.Transfer} whose ends are bound and connected;
     *     for a ping-pong, a measurement that sets up, runs and releases both ends in {@link Measurement#run()}
     * @throws TransferException if the library cannot be loaded or the sockets cannot be set up
     *     (a port in use is a usage error); nothing is left open
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
        if (spec instanceof PingPongSpec p) {
            return NativePingPong.of(p, clock);
        }
        return NativeStreamTransfer.open((TransferSpec) spec, clock);
    }

    /** @return {@link Pattern#STREAM} and {@link Pattern#PING_PONG} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM, Pattern.PING_PONG);
    }
}
