package io.linerate.core.spi.engine;

/**
 * One reading of a sending socket's {@code TCP_INFO}, filled by a {@link TcpProbe}: a reused
 * holder, so that a probe allocates nothing. Used by the measuring thread alone. A figure the
 * kernel did not give is -1.
 */
public final class TcpFigures {
    private long totalRetransmits = -1;
    private long cwndBytes = -1;
    private long rttMicros = -1;
    private long rttVarMicros = -1;
    private long pacingRate = -1;
    private long deliveryRate = -1;

    /**
     * @param totalRetransmits {@code tcpi_total_retrans}: segments retransmitted over the connection's life, at least 0
     * @param cwndBytes {@code tcpi_snd_cwnd × tcpi_snd_mss}, bytes (iperf3's {@code Cwnd}), or -1
     * @param rttMicros {@code tcpi_rtt}, µs, or -1
     * @param rttVarMicros {@code tcpi_rttvar}, µs, or -1
     * @param pacingRate {@code tcpi_pacing_rate}, bytes/s, or -1 when unlimited or not given
     * @param deliveryRate {@code tcpi_delivery_rate}, bytes/s, or -1 when not given
     * @throws IllegalArgumentException naming the value when the retransmits are negative or
     *     another figure is below -1
     */
    public void set(long totalRetransmits, long cwndBytes, long rttMicros, long rttVarMicros, long pacingRate,
                    long deliveryRate) {
        if (totalRetransmits < 0 || cwndBytes < -1 || rttMicros < -1 || rttVarMicros < -1 || pacingRate < -1
                || deliveryRate < -1) {
            throw new IllegalArgumentException("TCP_INFO figures out of range: total retransmits " + totalRetransmits
                    + " (allowed: >= 0), cwnd " + cwndBytes + ", rtt " + rttMicros + ", rttvar " + rttVarMicros
                    + ", pacing " + pacingRate + ", delivery " + deliveryRate + " (allowed: >= 0, or -1 when not given)");
        }
        this.totalRetransmits = totalRetransmits;
        this.cwndBytes = cwndBytes;
        this.rttMicros = rttMicros;
        this.rttVarMicros = rttVarMicros;
        this.pacingRate = pacingRate;
        this.deliveryRate = deliveryRate;
    }

    /** @return {@code tcpi_total_retrans}, segments; -1 before the first {@link #set} */
    public long totalRetransmits() {
        return totalRetransmits;
    }

    /** @return the congestion window, bytes; -1 when not given */
    public long cwndBytes() {
        return cwndBytes;
    }

    /** @return the smoothed RTT, µs; -1 when not given */
    public long rttMicros() {
        return rttMicros;
    }

    /** @return the RTT's mean deviation, µs; -1 when not given */
    public long rttVarMicros() {
        return rttVarMicros;
    }

    /** @return the pacing rate, bytes/s; -1 when unlimited or not given */
    public long pacingRate() {
        return pacingRate;
    }

    /** @return the delivery rate, bytes/s; -1 when not given */
    public long deliveryRate() {
        return deliveryRate;
    }
}
