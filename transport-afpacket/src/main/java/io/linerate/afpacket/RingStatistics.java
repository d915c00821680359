package io.linerate.afpacket;

/**
 * What the kernel counted on a receiving socket (PACKET_STATISTICS, accumulated over the run:
 * the kernel resets it on every read).
 *
 * @param packets frames the socket saw, drops included (tp_packets)
 * @param drops frames its ring had no room for (tp_drops)
 */
public record RingStatistics(long packets, long drops) {}
