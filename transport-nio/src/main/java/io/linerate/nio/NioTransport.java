package io.linerate.nio;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transport;
import io.linerate.nio.agent.RemoteOptions;
import io.linerate.nio.agent.RemoteStreamTransfer;
import io.linerate.nio.internal.NioStreamTransfer;
import java.util.Optional;

/**
 * TCP and UDP stream transfers over Java NIO with both ends in this JVM, over the loopback
 * address of the spec's family (127.0.0.1 or ::1) of the network namespace the JVM runs in; or,
 * for a spec whose endpoint is {@link Endpoint.Remote}, this end here and the other run by the
 * peer agent there ({@link RemoteStreamTransfer}, forward, without a secret: use it directly for
 * {@code --reverse} or a secret).
 * Registered for {@link java.util.ServiceLoader} under the name {@value #NAME}.
 */
public final class NioTransport implements Transport {
    /** The name this transport is found by. */
    public static final String NAME = "nio";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec m) {
        if (!(m instanceof TransferSpec spec)) {
            return Optional.of("the nio transport runs " + Pattern.STREAM.label() + ", not " + m.pattern().label());
        }
        if (spec.protocol() != Protocol.TCP && spec.protocol() != Protocol.UDP) {
            return Optional.of("the nio transport moves TCP and UDP streams only, not " + spec.protocol().label());
        }
        if (spec.endpoint() instanceof Endpoint.Remote peer && spec.bound().kind() != Bound.Kind.DURATION) {
            return Optional.of("a stream with remote peer " + peer + " is bounded by a duration, not " + spec.bound()
                    + ": the two ends agree on when to stop by time");
        }
        return Optional.empty();
    }

    @Override
    public Transfer open(MeasurementSpec spec, Clock clock) throws TransferException {
        unsupportedReason(spec).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        TransferSpec t = (TransferSpec) spec;
        if (t.endpoint() instanceof Endpoint.Remote) {
            return RemoteStreamTransfer.open(t, clock, RemoteOptions.defaults());
        }
        return NioStreamTransfer.open(t, clock);
    }
}
