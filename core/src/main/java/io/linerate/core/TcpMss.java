package io.linerate.core;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

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
 * <p>Where a transport can ask the kernel (the native transport's {@code getsockopt(TCP_MAXSEG)}),
 * the MSS is {@linkplain #read read} at both ends instead, and {@link #derivation()} says so.
 *
 * @param family the connection's address family
 * @param pathMtu the MTU of the path, bytes; 0 for an MSS read from the sockets
 * @param optionBytes TCP option bytes in every segment (12 with timestamps, 0 without); 0 for an
 *     MSS read from the sockets
 * @param read the MSS as read from the sockets of both ends; empty when derived
 * @param unreadBecause why a derived MSS was not read from the sockets (such as no native layer);
 *     empty when read, or when no reason is known
 */
public record TcpMss(AddressFamily family, int pathMtu, int optionBytes, Optional<Read> read, String unreadBecause) {
    /**
     * How a {@link Read} ends where only this host's end was read (the far end's socket is on
     * another host): its figure stands for both ends, and {@link #derivation()} says so once.
     */
    public static final String ONE_END = " of this host's end";
    /** TCP header without options, bytes (RFC 9293). */
    public static final int TCP_HEADER_BYTES = 20;
    /** Largest IPv4 datagram, bytes: the 16-bit total length. */
    public static final int MAX_IPV4_DATAGRAM_BYTES = 65535;

    /**
     * The MSS of each end as the kernel gives it ({@code TCP_MAXSEG}, tcp(7)): the most payload
     * bytes that end puts in one segment.
     *
     * @param senderBytes the sending end's, bytes, at least 1
     * @param receiverBytes the receiving end's, bytes, at least 1
     * @param how how it was read, such as {@code TCP_MAXSEG}
     */
    public record Read(int senderBytes, int receiverBytes, String how) {
        /** @throws IllegalArgumentException if either MSS is below 1 byte */
        public Read {
            Objects.requireNonNull(how, "how");
            if (senderBytes < 1 || receiverBytes < 1) {
                throw new IllegalArgumentException("an MSS read as " + senderBytes + " B at the sender and " + receiverBytes
                        + " B at the receiver is out of range; allowed: 1 byte or more");
            }
        }
    }

    /** A derived MSS: the path's MTU and the option bytes every segment carries. */
    public TcpMss(AddressFamily family, int pathMtu, int optionBytes) {
        this(family, pathMtu, optionBytes, Optional.empty(), "");
    }

    /** An MSS read, or a derived one without a reason why it was not read. */
    public TcpMss(AddressFamily family, int pathMtu, int optionBytes, Optional<Read> read) {
        this(family, pathMtu, optionBytes, read, "");
    }

    /**
     * @throws IllegalArgumentException if a derived MSS has options outside 0..40 bytes or an MTU that
     *     leaves no room for payload, or a read one has an MTU or options; the message names the value
     *     and the allowed range
     */
    public TcpMss {
        Objects.requireNonNull(family, "family");
        Objects.requireNonNull(read, "read");
        Objects.requireNonNull(unreadBecause, "unreadBecause");
        if (read.isPresent() && !unreadBecause.isEmpty()) {
            throw new IllegalArgumentException("an MSS read from the sockets has no reason why it was not read, not '"
                    + unreadBecause + "'; allowed: empty");
        }
        if (read.isPresent()) {
            if (pathMtu != 0 || optionBytes != 0) {
                throw new IllegalArgumentException("an MSS read from the sockets has no MTU or options, not MTU " + pathMtu
                        + " and " + optionBytes + " option bytes; allowed: 0 and 0");
            }
        } else {
            checkDerived(family, pathMtu, optionBytes);
        }
    }

    private static void checkDerived(AddressFamily family, int pathMtu, int optionBytes) {
        if (optionBytes < 0 || optionBytes > 40) {
            throw new IllegalArgumentException("TCP option bytes " + optionBytes + " are out of range; allowed: 0..40");
        }
        int min = family.ipHeaderBytes() + TCP_HEADER_BYTES + optionBytes + 1;
        if (pathMtu < min) {
            throw new IllegalArgumentException("MTU " + pathMtu + " bytes leaves no room for TCP payload over IPv"
                    + family.label() + " with " + optionBytes + " option bytes; allowed: " + min + " bytes or more");
        }
    }

    /**
     * @param family the connection's address family
     * @param senderBytes the sending end's MSS as read, bytes
     * @param receiverBytes the receiving end's MSS as read, bytes
     * @param how how it was read, such as {@code TCP_MAXSEG}
     * @return the MSS as read at both ends
     * @throws IllegalArgumentException if either is below 1 byte
     */
    public static TcpMss read(AddressFamily family, int senderBytes, int receiverBytes, String how) {
        return new TcpMss(family, 0, 0, Optional.of(new Read(senderBytes, receiverBytes, how)));
    }

    /**
     * @param reason why the kernel was not asked, such as {@code no TCP_INFO source on the class path}
     * @return this derived MSS, saying why it was not read
     * @throws IllegalArgumentException on an MSS that was read
     */
    public TcpMss withUnreadBecause(String reason) {
        return new TcpMss(family, pathMtu, optionBytes, read, reason);
    }

    /**
     * @return the MSS in bytes: the sender's as read; derived, {@code min(MTU, 65535 for IPv4) − IP
     *     header − 20 − options}
     */
    public int bytes() {
        if (read.isPresent()) {
            return read.get().senderBytes();
        }
        return ipMtu() - family.ipHeaderBytes() - TCP_HEADER_BYTES - optionBytes;
    }

    private int ipMtu() {
        return family == AddressFamily.IPV4 ? Math.min(pathMtu, MAX_IPV4_DATAGRAM_BYTES) : pathMtu;
    }

    /**
     * @return how the value was found, such as {@code derived: MTU 1280 - 40 IPv6 - 20 TCP - 12 timestamps}
     *     (with {@code ; not read: REASON} when the reason is known), {@code read: TCP_MAXSEG 65483
     *     at the sender, 65483 at the receiver}, or where only this host's end was read ({@link #ONE_END}),
     *     {@code read: tcpi_snd_mss 1448 at this host's end}
     */
    public String derivation() {
        if (read.isPresent()) {
            Read r = read.get();
            if (r.how().endsWith(ONE_END) && r.senderBytes() == r.receiverBytes()) {
                // one end read its own, which stands for both: one figure, said to be this host's
                return String.format(Locale.ROOT, "read: %s %d at this host's end",
                        r.how().substring(0, r.how().length() - ONE_END.length()), r.senderBytes());
            }
            return String.format(Locale.ROOT, "read: %s %d at the sender, %d at the receiver", r.how(), r.senderBytes(),
                    r.receiverBytes());
        }
        return String.format(Locale.ROOT, "derived: MTU %d%s - %d IPv%s - %d TCP%s", pathMtu,
                ipMtu() != pathMtu ? " (an IPv4 datagram holds " + ipMtu() + ")" : "", family.ipHeaderBytes(),
                family.label(), TCP_HEADER_BYTES, optionBytes > 0 ? " - " + optionBytes + " timestamps" : ", no timestamps")
                + (unreadBecause.isEmpty() ? "" : "; not read: " + unreadBecause);
    }
}
