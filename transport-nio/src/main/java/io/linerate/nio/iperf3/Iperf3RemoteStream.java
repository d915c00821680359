package io.linerate.nio.iperf3;

/**
 * One stream's entry in the results an iperf3 server sent at EXCHANGE_RESULTS, as it counted them.
 *
 * @param id iperf3's stream id (1, then 3, 4, ...: iperf3 skips 2)
 * @param bytes bytes the server received (linerate sent) or sent (reverse)
 * @param packets UDP: the highest sequence number the server received, or datagrams it sent (reverse); TCP: 0
 * @param errors UDP: datagrams the server counts lost (gaps in the sequence, less late arrivals;
 *     iperf3 does not count loss at the tail); TCP: 0
 * @param jitterSeconds UDP receiving server: its RFC 1889 jitter estimate, s; otherwise 0
 * @param retransmits TCP sending server: its retransmits, -1 when it does not count them
 * @param seconds the stream's duration as the server timed it (end_time - start_time), s
 */
public record Iperf3RemoteStream(int id, long bytes, long packets, long errors, double jitterSeconds, long retransmits,
                                 double seconds) {}
