package io.linerate.core;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** IP version of a transfer, with its loopback address and header sizes. */
public enum AddressFamily {
    /** IPv4: loopback 127.0.0.1, 20-byte IP header. */
    IPV4("4", new byte[] {127, 0, 0, 1}, 20),
    /** IPv6: loopback ::1, 40-byte IP header. */
    IPV6("6", new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}, 40);

    /** UDP header size in bytes (RFC 768). */
    public static final int UDP_HEADER_BYTES = 8;

    private final String label;
    private final byte[] loopback;
    private final int ipHeaderBytes;

    AddressFamily(String label, byte[] loopback, int ipHeaderBytes) {
        this.label = label;
        this.loopback = loopback;
        this.ipHeaderBytes = ipHeaderBytes;
    }

    /** @return {@code 4} or {@code 6}, as used in markers ({@code udp4}) and on the command line */
    public String label() {
        return label;
    }

    /** @return the fixed IP header size in bytes (20 for IPv4, 40 for IPv6, no options) */
    public int ipHeaderBytes() {
        return ipHeaderBytes;
    }

    /**
     * Largest UDP payload one datagram can carry: 65535 − IP header − 8 for IPv4 (65507); for IPv6
     * the 16-bit payload length excludes the fixed header, so 65535 − 8 (65527).
     *
     * @return bytes
     */
    public int maxUdpPayloadBytes() {
        return this == IPV4 ? 65535 - ipHeaderBytes - UDP_HEADER_BYTES : 65535 - UDP_HEADER_BYTES;
    }

    /** @return the loopback address of this family (127.0.0.1 or ::1) */
    public InetAddress loopbackAddress() {
        try {
            return InetAddress.getByAddress(loopback);
        } catch (UnknownHostException e) {
            throw new AssertionError("fixed-length address rejected", e);
        }
    }

    /**
     * @param text {@code 4} or {@code 6} (also {@code ipv4}, {@code ipv6})
     * @return the family
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static AddressFamily parse(String text) {
        String t = text.toLowerCase(java.util.Locale.ROOT);
        if (t.equals("4") || t.equals("ipv4") || t.equals("inet4")) {
            return IPV4;
        }
        if (t.equals("6") || t.equals("ipv6") || t.equals("inet6")) {
            return IPV6;
        }
        throw new IllegalArgumentException("unknown address family '" + text + "'; allowed: 4, 6");
    }
}
