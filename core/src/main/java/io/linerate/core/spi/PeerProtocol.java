package io.linerate.core.spi;

import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Iperf2Peer;
import io.linerate.core.Iperf3Peer;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.TransferException;
import java.util.Optional;

/**
 * A protocol that reaches a peer on another host: linerate's agent ({@link Endpoint.Remote},
 * {@link AgentPeer}), an iperf3 server ({@link Iperf3Peer}) or an iperf 2 server ({@link Iperf2Peer}).
 * A peer is an endpoint, not a transport: the transport a user selects asks {@link PeerProtocols}
 * for the protocol of a spec's endpoint and opens the measurement through it, passing itself, so
 * that this host's ends run on that transport. Found through {@link java.util.ServiceLoader}
 * (register the implementation in {@code META-INF/services/io.linerate.core.spi.PeerProtocol}); it
 * needs a public no-argument constructor that does no I/O and never throws.
 */
public interface PeerProtocol {

    /** @return the protocol's name, for messages: {@code agent}, {@code iperf3}, {@code iperf2} */
    String name();

    /**
     * @param endpoint a spec's endpoint
     * @return whether this protocol reaches it
     */
    boolean reaches(Endpoint endpoint);

    /**
     * @param spec a validated spec whose endpoint this protocol {@link #reaches}
     * @param transport the transport the spec was selected with, whose ends this host runs
     * @return why this protocol cannot run the spec over that transport, or empty when it can
     */
    Optional<String> unsupportedReason(MeasurementSpec spec, Transport transport);

    /**
     * Opens a measurement with the peer, bounded by the spec's I/O timeout. Nothing is left open
     * when this throws.
     *
     * @param spec what to measure; its endpoint names the peer
     * @param clock the time source of every reading
     * @param transport the transport the spec was selected with, whose ends this host runs
     * @return a measurement ready to {@link Measurement#run}: a stream with {@link Endpoint.Remote}
     *     gives a {@link io.linerate.core.Transfer}, one with a named peer the peer's result with
     *     both ends' metrics
     * @throws TransferException if the peer cannot be reached or the ends cannot be set up
     * @throws IllegalArgumentException if {@link #unsupportedReason} is not empty for the spec
     */
    Measurement open(MeasurementSpec spec, Clock clock, Transport transport) throws TransferException;
}
