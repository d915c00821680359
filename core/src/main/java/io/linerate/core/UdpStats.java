package io.linerate.core;

import io.linerate.core.latency.ExactRangeHistogram;
import java.util.Objects;
import java.util.OptionalDouble;

/**
 * Datagram accounting of the measured window of a UDP transfer (DESIGN rules 3, 5 and 6). The
 * window's datagrams are those the sender numbered while the window was open; each is counted as
 * received if it arrived at all, also after the window closed, so loss at the tail counts and
 * datagrams sent during the warm-up never do.
 *
 * @param datagramsSent datagrams the sender handed to the kernel inside the window
 * @param datagramsReceived how many of those arrived, each counted once
 * @param lost {@code datagramsSent − datagramsReceived}; never changed by reordering or duplication.
 *     With no datagram sent it is 0 by that identity, but there is no loss to speak of: outputs
 *     go by {@link #lossPercent()}, which is then empty
 * @param reordered arrivals of the window's datagrams after one with a higher sequence number
 * @param duplicates arrivals of the window's datagrams whose sequence number had already arrived
 * @param jitterNanos RFC 3550 section 6.4.1 interarrival jitter at the end of the window, ns;
 *     empty when none of the window's datagrams arrived, or fewer than two datagrams arrived in
 *     all (the estimator starts on the second), never 0 in their place
 * @param oneWayDelay one-way delay of the window's datagrams in ns (both ends read the same clock
 *     in one JVM), with its exact min and max; a copy the caller owns
 * @param receiverSocketDrops packets the receiving socket itself dropped over the whole transfer
 *     (warm-up, window and drain), the kernel's {@code sk_drops}: datagrams, or with {@code UDP_GRO}
 *     ({@link StreamIo#gso()}) coalesced buffers of up to 64 datagrams each; mostly a full receive buffer, so
 *     the receiver read too slowly and linerate's own end, not the network, lost them (DESIGN rule
 *     12); -1 when unknown (another system than Linux, a receiving socket in another process, a
 *     peer that does not report it). Not a part of {@code lost}, which counts the window only.
 */
public record UdpStats(long datagramsSent, long datagramsReceived, long lost, long reordered,
                       long duplicates, OptionalDouble jitterNanos, ExactRangeHistogram oneWayDelay,
                       long receiverSocketDrops) {

    /**
     * @throws NullPointerException for a null jitter or histogram
     * @throws IllegalArgumentException for drops below -1
     */
    public UdpStats {
        Objects.requireNonNull(jitterNanos, "jitterNanos");
        Objects.requireNonNull(oneWayDelay, "oneWayDelay");
        if (receiverSocketDrops < -1) {
            throw new IllegalArgumentException("receiver socket drops " + receiverSocketDrops
                    + " out of range; allowed: -1 (unknown) or 0 and above");
        }
    }

    /** The stats with the receiving socket's drops unknown (-1). */
    public UdpStats(long datagramsSent, long datagramsReceived, long lost, long reordered, long duplicates,
                    OptionalDouble jitterNanos, ExactRangeHistogram oneWayDelay) {
        this(datagramsSent, datagramsReceived, lost, reordered, duplicates, jitterNanos, oneWayDelay, -1);
    }

    /**
     * @param drops the receiving socket's drops over the whole transfer, -1 when unknown
     * @return these stats with {@code drops} as {@link #receiverSocketDrops()}
     * @throws IllegalArgumentException for drops below -1
     */
    public UdpStats withReceiverSocketDrops(long drops) {
        return new UdpStats(datagramsSent, datagramsReceived, lost, reordered, duplicates, jitterNanos, oneWayDelay,
                drops);
    }

    /** @return whether the receiving socket's drops are known and above 0: linerate's own end lost datagrams */
    public boolean receiverDropped() {
        return receiverSocketDrops > 0;
    }

    /**
     * @return lost datagrams as a percentage of those sent; empty when no datagram was sent in
     *     the window (the loss of no datagrams is not 0 %, it does not exist)
     */
    public OptionalDouble lossPercent() {
        return datagramsSent == 0 ? OptionalDouble.empty() : OptionalDouble.of(100.0 * lost / datagramsSent);
    }
}
