package io.linerate.nio;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;

/**
 * How the NIO transport finds a connection's MSS. The JDK exposes neither {@code TCP_MAXSEG} nor
 * {@code tcp_info}, so it derives the MSS as the kernel does for its send MSS (RFC 9293 section
 * 3.7.1; Linux {@code tcp_mtu_to_mss} minus {@code tcp_established_options}): from the path MTU
 * ({@link PathFacts#mtu}) and the TCP options every segment carries, which are 12 bytes with
 * timestamps (RFC 7323: a 10-byte option padded to 12) and 0 without ({@link PathFacts#tcpTimestamps}).
 * The kernel may send smaller segments for a while (it bounds them by half the peer's largest
 * window), never larger ones.
 */
public final class TcpMssDerivation {
    /** The timestamp option as every segment carries it: 10 bytes padded to 12 (RFC 7323 appendix A). */
    public static final int TIMESTAMP_OPTION_BYTES = 12;

    private TcpMssDerivation() {}

    /**
     * @param family the connection's address family
     * @param pathMtu the MTU of the path (on loopback: of the loopback interface), bytes
     * @param timestamps whether the connection uses TCP timestamps ({@code net.ipv4.tcp_timestamps}
     *     non-zero on both ends; it also governs IPv6)
     * @return the MSS those give
     * @throws IllegalArgumentException if the MTU leaves no room for payload (the message names the
     *     MTU and the smallest one allowed)
     */
    public static TcpMss derive(AddressFamily family, int pathMtu, boolean timestamps) {
        return new TcpMss(family, pathMtu, timestamps ? TIMESTAMP_OPTION_BYTES : 0);
    }
}
