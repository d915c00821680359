package io.linerate.core;

/**
 * What the sending socket's {@code TCP_INFO} (Linux {@code <linux/tcp.h>} {@code struct tcp_info},
 * tcp(7)) said over one reporting interval, where the transport reads it at every interval tick
 * (the native transport): iperf3's {@code Retr} and {@code Cwnd} of an interval line, and the RTT
 * and rates of its JSON. A figure the kernel did not give is -1; an interval whose socket was not
 * read has no such sample at all ({@link IntervalSample#tcp()} is empty), never one of zeros.
 *
 * @param retransmits segments retransmitted in the interval: {@code tcpi_total_retrans} at the
 *     interval's end reading minus at its start reading, so that the intervals of a run add up to
 *     the change between its first and last readings; at least 0
 * @param cwndBytes the congestion window at the interval's end, bytes: {@code tcpi_snd_cwnd × tcpi_snd_mss},
 *     as iperf3 computes it; -1 when not given
 * @param rttMicros the smoothed RTT at the interval's end, {@code tcpi_rtt}, µs; -1 when not given
 * @param rttVarMicros the RTT's mean deviation at the interval's end, {@code tcpi_rttvar}, µs; -1 when not given
 * @param pacingRate {@code tcpi_pacing_rate} at the interval's end, bytes/s; -1 when unlimited or not given
 * @param deliveryRate {@code tcpi_delivery_rate} at the interval's end, bytes/s; -1 when not given
 */
public record TcpIntervalSample(long retransmits, long cwndBytes, long rttMicros, long rttVarMicros, long pacingRate,
                                long deliveryRate) {

    /** @throws IllegalArgumentException naming the figure when the retransmits are negative or another is below -1 */
    public TcpIntervalSample {
        if (retransmits < 0) {
            throw new IllegalArgumentException("retransmits " + retransmits + " in an interval; allowed: >= 0");
        }
        atLeastMinusOne("cwndBytes", cwndBytes);
        atLeastMinusOne("rttMicros", rttMicros);
        atLeastMinusOne("rttVarMicros", rttVarMicros);
        atLeastMinusOne("pacingRate", pacingRate);
        atLeastMinusOne("deliveryRate", deliveryRate);
    }

    private static void atLeastMinusOne(String name, long v) {
        if (v < -1) {
            throw new IllegalArgumentException(name + " " + v + " is out of range; allowed: >= 0, or -1 when not given");
        }
    }
}
