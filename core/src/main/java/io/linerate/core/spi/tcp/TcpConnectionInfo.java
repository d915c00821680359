package io.linerate.core.spi.tcp;

import java.io.IOException;

/**
 * A reused holder of one TCP connection's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}):
 * {@link #read} asks the kernel for the current values, and the getters decode the last ones read,
 * without allocating, so that a sending thread can read it as its phase changes. Not thread-safe:
 * one thread at a time, with a happens-before edge between threads. A field the kernel did not
 * write (an older kernel's shorter structure), or any before the first successful read, is -1.
 */
public interface TcpConnectionInfo {

    /**
     * Reads the connection's {@code tcp_info} now; allocates nothing when it succeeds.
     *
     * @return true when read; false when the kernel holds no TCP connection with these addresses
     *     (never opened, or closed and gone), and the getters then give -1
     * @throws IOException naming the call and the errno when asking the kernel fails, or its
     *     answer does not arrive within the source's bound
     */
    boolean read() throws IOException;

    /** @return the connection, as {@code local -> remote} */
    String describe();

    /** @return {@code tcpi_state}: the TCP state, as {@code <netinet/tcp.h>} numbers it ({@code TCP_ESTABLISHED} is 1) */
    long state();

    /** @return {@code tcpi_total_retrans}: segments retransmitted over the connection's life */
    long totalRetrans();

    /** @return {@code tcpi_snd_cwnd}: the congestion window, segments of {@code tcpi_snd_mss} */
    long sndCwnd();

    /** @return {@code tcpi_snd_mss}: the send MSS, bytes */
    long sndMss();

    /** @return {@code tcpi_rcv_mss}: the MSS the kernel estimates the peer sends, bytes */
    long rcvMss();

    /** @return {@code tcpi_rtt}: the smoothed RTT, µs */
    long rttMicros();

    /** @return {@code tcpi_rttvar}: the RTT's mean deviation, µs */
    long rttVarMicros();

    /** @return {@code tcpi_pacing_rate}, bytes/s; -1 when unlimited (the kernel's {@code ~0}) or not written */
    long pacingRate();

    /** @return {@code tcpi_bytes_acked}: bytes the peer acknowledged (RFC 4898 tcpEStatsAppHCThruOctetsAcked) */
    long bytesAcked();

    /** @return {@code tcpi_delivery_rate}, bytes/s; -1 when the kernel's structure does not hold it (before Linux 4.9) */
    long deliveryRate();
}
