package io.linerate.afpacket;

/** The interface statistics {@link NicCounters} accumulates, as named in {@code /sys/class/net/IF/statistics/}. */
public enum NicCounter {
    /** Frames received (packets). */
    RX_PACKETS("rx_packets"),
    /** Bytes received, L2 without FCS. */
    RX_BYTES("rx_bytes"),
    /** Frames received and dropped by the stack or driver. */
    RX_DROPPED("rx_dropped"),
    /** Receive errors. */
    RX_ERRORS("rx_errors"),
    /** Frames transmitted (packets). */
    TX_PACKETS("tx_packets"),
    /** Bytes transmitted, L2 without FCS. */
    TX_BYTES("tx_bytes"),
    /** Frames dropped on transmit. */
    TX_DROPPED("tx_dropped"),
    /** Transmit errors. */
    TX_ERRORS("tx_errors");

    private final String file;

    NicCounter(String file) {
        this.file = file;
    }

    /** @return the file name under {@code statistics/} */
    public String file() {
        return file;
    }
}
