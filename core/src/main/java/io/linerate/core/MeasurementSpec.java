package io.linerate.core;
import io.linerate.core.spi.Transport;

/**
 * What to measure, for any {@link Pattern}: one immutable, validated spec type per pattern, all
 * under this interface. A {@link Transport} opens any spec whose pattern it supports
 * ({@link Transport#open(MeasurementSpec, Clock)}), and every run gives a {@link MeasurementResult}.
 *
 * <p>The set of patterns is closed ({@code sealed}): a new transport plugs in a new way of moving
 * the same patterns, so code that handles every pattern can {@code switch} over the spec types and
 * the compiler checks that none is missed.
 */
public sealed interface MeasurementSpec permits TransferSpec, PingPongSpec, RrSpec, RawTransferSpec {

    /** @return this spec's pattern */
    Pattern pattern();

    /**
     * @return where the far end runs: {@link Endpoint#loopback()} (both ends in this JVM) unless
     *     the spec names a remote peer
     */
    default Endpoint endpoint() {
        return Endpoint.loopback();
    }

    /**
     * @return the name of the KTAP test this spec's metrics belong to on every road (docs/metrics.md,
     *     "One key per quantity"): a stream's marker ({@code tcp4}, {@code udp6}, {@code tcp4_nodelay}),
     *     {@code pingpong_<protocol>}, {@code tcp_rr} or {@code tcp_crr}, {@code raw}
     */
    String testName();
}
