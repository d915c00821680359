package io.linerate.core;

/**
 * What the kernel's {@code TCP_INFO} (Linux {@code <linux/tcp.h>} {@code struct tcp_info}, tcp(7))
 * said about a TCP stream's sending socket, where a transport can read it: the native transport
 * with {@code getsockopt}, the NIO transport through a {@link io.linerate.core.spi.tcp.TcpInfoSource}
 * found at run time (sock_diag netlink, where linerate-native is on the class path).
 * A figure the kernel did not give is -1.
 *
 * @param windowRetransmits segments retransmitted in the measured window: {@code tcpi_total_retrans}
 *     when the sender took the window's end up minus when it took its start up
 * @param totalRetransmits segments retransmitted over the connection's life, {@code tcpi_total_retrans} at the end
 * @param cwndBytes the congestion window at the end, bytes: {@code tcpi_snd_cwnd × tcpi_snd_mss}, as iperf3 computes it
 * @param rttMicros the smoothed RTT at the end, {@code tcpi_rtt}, µs
 * @param rttVarMicros the RTT's mean deviation at the end, {@code tcpi_rttvar}, µs
 * @param pacingRate {@code tcpi_pacing_rate} at the end, bytes/s; -1 when unlimited
 * @param deliveryRate {@code tcpi_delivery_rate} at the end, bytes/s; -1 when the kernel does not give it
 * @param senderMss {@code tcpi_snd_mss} of the sender at the end, bytes
 * @param receiverMss {@code tcpi_rcv_mss} of the receiver at the end, bytes: the MSS it saw arrive
 */
public record TcpStats(long windowRetransmits, long totalRetransmits, long cwndBytes, long rttMicros, long rttVarMicros,
                       long pacingRate, long deliveryRate, long senderMss, long receiverMss) {

    /** @throws IllegalArgumentException if the window's retransmits are negative or exceed the total */
    public TcpStats {
        if (windowRetransmits < 0 || windowRetransmits > totalRetransmits) {
            throw new IllegalArgumentException("retransmits " + windowRetransmits + " in the window and " + totalRetransmits
                    + " in total are out of range; allowed: 0 <= window <= total");
        }
    }
}
