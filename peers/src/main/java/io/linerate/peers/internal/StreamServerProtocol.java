package io.linerate.peers.internal;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.Transport;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * A {@link PeerProtocol} for a server that runs streams only (iperf3, iperf 2): it reaches one kind
 * of endpoint, runs this host's ends on the NIO transport ({@link OnNio}), and opens each
 * {@link TransferSpec} with the protocol's own client.
 */
public abstract class StreamServerProtocol implements PeerProtocol {
    private final String name;
    private final String server;
    private final Class<? extends Endpoint> endpoint;
    private final Function<TransferSpec, Measurement> client;

    /**
     * @param name the protocol's name in messages, such as {@code iperf3}
     * @param server the server as a message names it, such as {@code an iperf3 server}
     * @param endpoint the endpoint type this protocol reaches
     * @param client opens a stream with the server
     */
    protected StreamServerProtocol(String name, String server, Class<? extends Endpoint> endpoint,
            Function<TransferSpec, Measurement> client) {
        this.name = Objects.requireNonNull(name, "name");
        this.server = Objects.requireNonNull(server, "server");
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.client = Objects.requireNonNull(client, "client");
    }

    @Override
    public final String name() {
        return name;
    }

    /** @return true for an endpoint of this protocol's type */
    @Override
    public final boolean reaches(Endpoint e) {
        return endpoint.isInstance(e);
    }

    /**
     * @return why this host's end cannot run the spec with this server: a stream asking for the
     *     native transport's calls (batches, GSO, sendfile, MSG_TRUNC), which this end, on the JDK's
     *     sockets, cannot make; a stream asking for an affinity, which this end does not apply; or a
     *     transport other than the JDK's sockets
     */
    @Override
    public final Optional<String> unsupportedReason(MeasurementSpec spec, Transport transport) {
        if (spec instanceof TransferSpec t && !t.io().isDefault() && !t.io().equals(ONE_CALL_PER_MESSAGE)) {
            return Optional.of("io " + t.io() + " runs on the native transport's ends only, and with " + server
                    + " this host's end runs on the " + PeerEndsLookup.DEFAULT_TRANSPORT + " transport: leave --batch, "
                    + "--gso, -Z and --skip-rx-copy out, or run the far end on linerate's agent (serve --transport "
                    + "native)");
        }
        if (spec instanceof TransferSpec t && t.affinity().pins()) {
            return Optional.of("affinity " + t.affinity().label() + " is not applied to a stream with " + server
                    + ": leave --affinity out and pin the processes instead (taskset -c)");
        }
        return OnNio.reason(server, transport);
    }

    /** What the JDK's sockets do anyway: one system call per datagram or write. */
    private static final StreamIo ONE_CALL_PER_MESSAGE = new StreamIo(1, false, false, false);

    /** @throws IllegalArgumentException for a spec that is no {@link TransferSpec}, or is unsupported */
    @Override
    public final Measurement open(MeasurementSpec spec, Clock clock, Transport transport) {
        unsupportedReason(spec, transport).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (!(spec instanceof TransferSpec t)) {
            throw new IllegalArgumentException(server + " runs streams, not " + spec.pattern().label());
        }
        return client.apply(t);
    }
}
