package io.linerate.socket;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Transport;
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
     *     (ping-pong and request/response), its protocol (UDP) or its endpoint (a remote host, the
     *     agent, iperf3 or iperf 2)
     */
    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (!(m instanceof TransferSpec spec)) {
            return Optional.of("pattern " + m.pattern().label() + " is not yet on the native transport: it runs "
                    + Pattern.STREAM.label() + " only");
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

    /**
     * @return a {@link io.linerate.core.Transfer} whose ends are bound and connected
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
        return NativeStreamTransfer.open((TransferSpec) spec, clock);
    }

    /** @return {@link Pattern#STREAM} */
    @Override
    public Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM);
    }
}
