package io.linerate.socket;

/**
 * A copy of the fields of the kernel's {@code struct tcp_info} (Linux {@code <linux/tcp.h>},
 * read with {@code getsockopt(fd, IPPROTO_TCP, TCP_INFO)}, tcp(7)) that linerate reports. Each
 * component names the {@code tcpi_} field it copies; a field the kernel did not write (an older
 * kernel's shorter structure) is -1.
 *
 * @param totalRetrans {@code tcpi_total_retrans}: segments retransmitted over the connection's life
 * @param sndCwnd {@code tcpi_snd_cwnd}: the congestion window, in segments of {@code tcpi_snd_mss}
 * @param sndMss {@code tcpi_snd_mss}: the send MSS, bytes
 * @param rcvMss {@code tcpi_rcv_mss}: the MSS the kernel estimates the peer sends, bytes
 * @param rttMicros {@code tcpi_rtt}: the smoothed RTT, µs
 * @param rttVarMicros {@code tcpi_rttvar}: the RTT's mean deviation, µs
 * @param pacingRate {@code tcpi_pacing_rate}: bytes/s; {@code -1} (the kernel's {@code ~0}) when unlimited
 * @param bytesAcked {@code tcpi_bytes_acked}: bytes the peer acknowledged (RFC 4898 tcpEStatsAppHCThruOctetsAcked)
 * @param deliveryRate {@code tcpi_delivery_rate}: bytes/s; {@code -1} when the kernel's
 *     {@code tcp_info} is too short to hold it (before Linux 4.9)
 */
public record TcpInfo(long totalRetrans, long sndCwnd, long sndMss, long rcvMss, long rttMicros, long rttVarMicros,
                      long pacingRate, long bytesAcked, long deliveryRate) {

    /**
     * @return the congestion window in bytes, {@code tcpi_snd_cwnd × tcpi_snd_mss}, as iperf3
     *     computes its {@code Cwnd}; -1 when either is unknown
     */
    public long cwndBytes() {
        return sndCwnd < 0 || sndMss < 0 ? -1 : sndCwnd * sndMss;
    }
}
