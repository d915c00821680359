package io.linerate.peers.iperf3;

import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.PeerProtocol;
import io.linerate.core.spi.Transport;
import io.linerate.peers.internal.OnNio;
import java.util.Optional;

/**
 * An iperf3 server as a {@link PeerProtocol}: a stream with {@link Iperf3Peer} runs as an
 * {@link Iperf3Stream}, whose result holds both ends' metrics. Registered for
 * {@link java.util.ServiceLoader}.
 */
public final class Iperf3Protocol implements PeerProtocol {
    /** The name this protocol goes by in messages. */
    public static final String NAME = "iperf3";

    @Override
    public String name() {
        return NAME;
    }

    /** @return true for {@link Iperf3Peer} */
    @Override
    public boolean reaches(Endpoint endpoint) {
        return endpoint instanceof Iperf3Peer;
    }

    @Override
    public Optional<String> unsupportedReason(MeasurementSpec spec, Transport transport) {
        return OnNio.reason("an iperf3 server", transport);
    }

    /** @throws IllegalArgumentException for a spec that is no {@link TransferSpec}, or is unsupported */
    @Override
    public Measurement open(MeasurementSpec spec, Clock clock, Transport transport) {
        unsupportedReason(spec, transport).ifPresent(r -> {
            throw new IllegalArgumentException(r);
        });
        if (!(spec instanceof TransferSpec t)) {
            throw new IllegalArgumentException("an iperf3 server runs streams, not " + spec.pattern().label());
        }
        return Iperf3Stream.open(t);
    }
}
