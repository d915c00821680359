package io.linerate.core;

import org.HdrHistogram.Histogram;

/**
 * Datagram accounting of a whole UDP transfer (DESIGN rules 3 and 6).
 *
 * @param datagramsSent datagrams the sender handed to the kernel
 * @param datagramsReceived distinct datagrams received (duplicates are not counted twice)
 * @param lost {@code datagramsSent − datagramsReceived}, trailing loss included; never changed by
 *     reordering or duplication
 * @param reordered datagrams that arrived after one with a higher sequence number
 * @param duplicates datagrams whose sequence number had already arrived
 * @param jitterNanos RFC 3550 section 6.4.1 interarrival jitter at the end, ns
 * @param oneWayDelay one-way delay of every datagram in ns (both ends read the same clock in one
 *     JVM); a copy the caller owns
 */
public record UdpStats(long datagramsSent, long datagramsReceived, long lost, long reordered,
                       long duplicates, double jitterNanos, Histogram oneWayDelay) {

    /** @return lost datagrams as a percentage of those sent; 0 when nothing was sent */
    public double lossPercent() {
        return datagramsSent == 0 ? 0.0 : 100.0 * lost / datagramsSent;
    }
}
