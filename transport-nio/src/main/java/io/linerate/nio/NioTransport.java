package io.linerate.nio;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transport;
import io.linerate.nio.internal.NioStreamTransfer;
import java.util.Optional;

/**
 * TCP and UDP stream transfers over Java NIO with both ends in this JVM, over the loopback
 * address of the spec's family (127.0.0.1 or ::1) of the network namespace the JVM runs in.
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
        if (spec.endpoint() instanceof Endpoint.Remote peer) {
            return Optional.of("remote peer " + peer + " needs a peer agent, which this version of linerate does not have;"
                    + " run both ends in this JVM (loopback endpoint)");
        }
        return Optional.empty();
    }

    @Override
    public Transfer open(MeasurementSpec spec, Clock clock) throws TransferException {
        unsupportedReason(spec).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        return NioStreamTransfer.open((TransferSpec) spec, clock);
    }
}
