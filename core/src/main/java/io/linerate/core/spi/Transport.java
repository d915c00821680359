package io.linerate.core.spi;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Pattern;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.ends.PeerEnds;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * A way of moving data, found by {@link Transports} through {@link java.util.ServiceLoader}
 * (register the implementation in {@code META-INF/services/io.linerate.core.spi.Transport}).
 * Implementations need a public no-argument constructor that does no I/O and never throws; a
 * transport that cannot work on this host (no privilege, no native library, another operating
 * system) says so through {@link #unavailabilityCause()} instead, as Netty's native transports do.
 */
public interface Transport {

    /** @return the name users select it by, such as {@code nio} */
    String name();

    /**
     * @return why this transport cannot run anything on this host (for example "needs
     *     CAP_NET_RAW"), or empty when it can; the default is always available
     */
    default Optional<String> unavailabilityCause() {
        return Optional.empty();
    }

    /** @return whether this transport can run on this host: {@link #unavailabilityCause()} is empty */
    default boolean isAvailable() {
        return unavailabilityCause().isEmpty();
    }

    /**
     * @return the patterns this transport can run; a spec of another pattern is unsupported. The
     *     default is {@link Pattern#STREAM} alone.
     */
    default Set<Pattern> patterns() {
        return EnumSet.of(Pattern.STREAM);
    }

    /**
     * @return this host's ends of a measurement whose other end runs on a peer, on this transport's
     *     sockets: what the agent's ends run on, as client and as server. The default is empty: peers
     *     cannot run on this transport.
     */
    default Optional<PeerEnds> peerEnds() {
        return Optional.empty();
    }

    /**
     * @param spec a validated spec of any pattern
     * @return why this transport cannot run the spec (its pattern, protocol or endpoint), or empty
     *     when it can
     */
    Optional<String> unsupportedReason(MeasurementSpec spec);

    /**
     * Opens a measurement of any pattern this transport supports, bounded by the spec's I/O
     * timeout. Nothing is left open when this throws. A {@link TransferSpec} gives a
     * {@link Transfer}, except one whose endpoint names its peer ({@link AgentPeer},
     * {@link Iperf3Peer}, {@link Iperf2Peer}): its measurement's {@link Measurement#run(IntervalListener)}
     * gives the peer's result, with both ends' metrics.
     *
     * @param spec what to measure
     * @param clock the time source of every reading
     * @return a measurement ready to {@link Measurement#run}
     * @throws TransferException if the endpoints cannot be set up; a port in use is a usage error
     * @throws IllegalArgumentException if {@link #unsupportedReason} is not empty for the spec
     */
    Measurement open(MeasurementSpec spec, Clock clock) throws TransferException;

    /**
     * Opens a stream transfer: binds the receiver and connects the sender, each bounded by the spec's
     * I/O timeout. Nothing is left open when this throws.
     *
     * @param spec what to measure
     * @param clock the time source of every reading
     * @return a transfer ready to {@link Transfer#run}
     * @throws TransferException if the endpoints cannot be set up; a port in use is a usage error
     * @throws IllegalArgumentException if {@link #unsupportedReason} is not empty for the spec
     * @throws IllegalStateException when the transport opens the spec as no {@link Transfer} (a spec
     *     whose endpoint names its peer: open it as a {@link MeasurementSpec})
     */
    default Transfer open(TransferSpec spec, Clock clock) throws TransferException {
        Measurement m = open((MeasurementSpec) spec, clock);
        if (m instanceof Transfer t) {
            return t;
        }
        m.close();
        throw new IllegalStateException("transport " + name() + " opened a stream spec with endpoint "
                + spec.endpoint() + " as " + m.getClass().getName() + ", which is no Transfer: a stream with a "
                + "peer gives the peer's result; open it as a MeasurementSpec, open((MeasurementSpec) spec, clock)");
    }
}
