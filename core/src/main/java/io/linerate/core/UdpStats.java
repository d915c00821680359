package io.linerate.core;

import io.linerate.core.latency.ExactRangeHistogram;

/**
 * Datagram accounting of the measured window of a UDP transfer (DESIGN rules 3, 5 and 6). The
 * window's datagrams are those the sender numbered while the window was open; each is counted as
 * received if it arrived at all, also after the window closed, so loss at the tail counts and
 * datagrams sent during the warm-up never do.
 *
 * @param datagramsSent datagrams the sender handed to the kernel inside the window
 * @param datagramsReceived how many of those arrived, each counted once
 * @param lost {@code datagramsSent − datagramsReceived}; never changed by reordering or duplication
 * @param reordered arrivals of the window's datagrams after one with a higher sequence number
 * @param duplicates arrivals of the window's datagrams whose sequence number had already arrived
 * @param jitterNanos RFC 3550 section 6.4.1 interarrival jitter at the end of the window, ns
 * @param oneWayDelay one-way delay of the window's datagrams in ns (both ends read the same clock
 *     in one JVM), with its exact min and max; a copy the caller owns
 */
public record UdpStats(long datagramsSent, long datagramsReceived, long lost, long reordered,
                       long duplicates, double jitterNanos, ExactRangeHistogram oneWayDelay) {

    /** @return lost datagrams as a percentage of those sent; 0 when nothing was sent */
    public double lossPercent() {
        return datagramsSent == 0 ? 0.0 : 100.0 * lost / datagramsSent;
    }
}
