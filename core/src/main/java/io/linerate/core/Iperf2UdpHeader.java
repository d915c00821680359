package io.linerate.core;

/**
 * The UDP datagram header sent to an iperf 2 server ({@link Iperf2Peer}); iperf 2's source
 * ({@code include/payloads.h}) defines the layouts.
 */
public enum Iperf2UdpHeader {
    /** Current iperf 2 (2.0.10 and later): 16 bytes, 64-bit ids; Debian's iperf 2 expects it. */
    SEQ64,
    /** zperf, or iperf 2 without 64-bit ids: 16 bytes, 32-bit ids. */
    SEQ32,
    /** iperf 2.0.5 and older: 12 bytes, 32-bit ids. */
    LEGACY
}
