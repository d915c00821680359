package io.linerate.core;

import java.util.Locale;
import java.util.Objects;

/**
 * The maximum segment size of a TCP connection: the most payload bytes one segment carries. A
 * write that is not a multiple of it leaves a short segment (a runt) behind each full one.
 *
 * <p>{@code MSS = min(MTU, 65535 for IPv4) − IP header − 20 (TCP header) − options}: an IPv4
 * datagram holds at most 65535 bytes (RFC 9293 section 3.7.1; Linux {@code tcp_mtu_to_mss} minus
 * {@code tcp_established_options}). For example, at a loopback MTU of 1280 with the 12 bytes of
 * the timestamp option: 1280 − 40 − 20 − 12 = 1208 over IPv6 and 1280 − 20 − 20 − 12 = 1228 over
 * IPv4, as {@code ss -ti} shows. Which MTU and which options a connection has is a transport's to
 * find out (transport-nio derives them from the interface's MTU and {@code net.ipv4.tcp_timestamps},
 * as the JDK exposes neither {@code TCP_MAXSEG} nor {@code tcp_info}); this record holds what it found.
 *
 * @param family the connection's address family
 * @param pathMtu the MTU of the path, bytes
 * @param optionBytes TCP option bytes in every segment (12 with timestamps, 0 without)
 */
public record TcpMss(AddressFamily family, int pathMtu, int optionBytes) {
    /** TCP header without options, bytes (RFC 9293). */
    public static final int TCP_HEADER_BYTES = 20;
    /** Largest IPv4 datagram, bytes: the 16-bit total length. */
    public static final int MAX_IPV4_DATAGRAM_BYTES = 65535;

    /**
     * @throws IllegalArgumentException if the options are outside 0..40 bytes or the MTU leaves no room
     *     for payload; the message names the value and the allowed range
     */
    public TcpMss {
        Objects.requireNonNull(family, "family");
        if (optionBytes < 0 || optionBytes > 40) {
            throw new IllegalArgumentException("TCP option bytes " + optionBytes + " are out of range; allowed: 0..40");
        }
        int min = family.ipHeaderBytes() + TCP_HEADER_BYTES + optionBytes + 1;
        if (pathMtu < min) {
            throw new IllegalArgumentException("MTU " + pathMtu + " bytes leaves no room for TCP payload over IPv"
                    + family.label() + " with " + optionBytes + " option bytes; allowed: " + min + " bytes or more");
        }
    }

    /** @return the MSS in bytes: {@code min(MTU, 65535 for IPv4) − IP header − 20 − options} */
    public int bytes() {
        return ipMtu() - family.ipHeaderBytes() - TCP_HEADER_BYTES - optionBytes;
    }

    private int ipMtu() {
        return family == AddressFamily.IPV4 ? Math.min(pathMtu, MAX_IPV4_DATAGRAM_BYTES) : pathMtu;
    }

    /** @return how the value was found, such as {@code derived: MTU 1280 - 40 IPv6 - 20 TCP - 12 timestamps} */
    public String derivation() {
        return String.format(Locale.ROOT, "derived: MTU %d%s - %d IPv%s - %d TCP%s", pathMtu,
                ipMtu() != pathMtu ? " (an IPv4 datagram holds " + ipMtu() + ")" : "", family.ipHeaderBytes(),
                family.label(), TCP_HEADER_BYTES, optionBytes > 0 ? " - " + optionBytes + " timestamps" : ", no timestamps");
    }
}
