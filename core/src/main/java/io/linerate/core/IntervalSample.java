package io.linerate.core;

import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the receiver counted in one reporting interval. Both ends of the interval are clock readings
 * taken right after the counters were read (DESIGN rule 1), so the interval length is the real
 * time between the two readings, not the nominal interval.
 *
 * @param startNanos interval start, ns since the transfer started
 * @param endNanos interval end, ns since the transfer started
 * @param bytes payload bytes received in the interval; in the measured window only those sent
 *     inside it, so that the window's intervals add up to its total
 * @param datagrams distinct datagrams received in the interval (0 for TCP), counted as {@code bytes}
 * @param lost change in datagrams found missing by sequence gaps (0 for TCP); negative when
 *     datagrams counted missing earlier arrived late in this interval
 * @param jitterNanos RFC 3550 interarrival jitter at the end of the interval, ns; empty for TCP,
 *     and for a UDP interval in which no datagram arrived (the jitter of no datagrams is not 0,
 *     it does not exist)
 * @param omitted whether the interval lies in the warm-up and is left out of the summary
 * @param tcp the sending socket's {@code TCP_INFO} over the interval, where the transport reads it
 *     at every tick (the native transport's TCP streams); where a peer sent and reported its own
 *     per interval (linerate's agent), the peer's sample joined onto this interval; empty where it
 *     was not read
 */
public record IntervalSample(long startNanos, long endNanos, long bytes, long datagrams, long lost,
                             OptionalDouble jitterNanos, boolean omitted, Optional<TcpIntervalSample> tcp) {

    /** @throws NullPointerException for a null jitter or TCP sample (use the empty ones) */
    public IntervalSample {
        Objects.requireNonNull(jitterNanos, "jitterNanos");
        Objects.requireNonNull(tcp, "tcp");
    }

    /** An interval without {@code TCP_INFO}. */
    public IntervalSample(long startNanos, long endNanos, long bytes, long datagrams, long lost,
                          OptionalDouble jitterNanos, boolean omitted) {
        this(startNanos, endNanos, bytes, datagrams, lost, jitterNanos, omitted, Optional.empty());
    }

    /** A TCP interval, or any without jitter. */
    public IntervalSample(long startNanos, long endNanos, long bytes, long datagrams, long lost, boolean omitted) {
        this(startNanos, endNanos, bytes, datagrams, lost, OptionalDouble.empty(), omitted, Optional.empty());
    }

    /**
     * @param figures the sending socket's {@code TCP_INFO} over this interval
     * @return this interval with them
     */
    public IntervalSample withTcp(TcpIntervalSample figures) {
        return new IntervalSample(startNanos, endNanos, bytes, datagrams, lost, jitterNanos, omitted,
                Optional.of(figures));
    }

    /** @return interval length in ns */
    public long nanos() {
        return endNanos - startNanos;
    }

    /** @return goodput in bit/s, empty for a zero-length interval */
    public OptionalDouble bitsPerSecond() {
        return Rates.bitsPerSecond(bytes, nanos());
    }
}
