package io.linerate.suite;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The bytes per write of the {@link LoopbackSuite}'s TCP markers, per address family, and why.
 *
 * <p>zperf writes 1220 bytes, the IPv6 MSS at its MTU of 1280 (1280 − 40 − 20): one full segment
 * per write. On Linux with Nagle's algorithm on (RFC 896, RFC 9293 section 3.7.4) a write that is
 * a little smaller than the MSS leaves the tail of each segment waiting for an ACK; at a loopback
 * MTU of 1280 with TCP timestamps, 1208-byte writes over IPv4 (MSS 1228) ran at about half the
 * TCP_NODELAY rate. So the default ({@link #of}) keeps zperf's rule in each family:
 * <ul>
 *   <li>where the family's MSS is below twice zperf's 1220 bytes, the family writes its own MSS,
 *       one full segment (at MTU 1280 with timestamps: 1228 over IPv4, 1208 over IPv6);
 *   <li>where a segment holds two or more of zperf's writes (the host's loopback, MTU 65536, MSS
 *       65483 and 65464), the stack joins writes into full segments itself, and 1220 stays;
 *   <li>where the MSS can be neither read nor derived, 1220 stays, and the reason says so.
 * </ul>
 * The MSS is the one a loopback connection reads ({@code tcpi_snd_mss}, the CLI's probe through
 * transport-nio's {@code PathFacts.readLoopbackTcpMss}), or where it cannot be read, the one derived
 * from the loopback's MTU; the description says which.
 *
 * @param ipv4Bytes bytes per write of {@code tcp4} and {@code tcp4_nodelay}
 * @param ipv6Bytes bytes per write of {@code tcp6} and {@code tcp6_nodelay}
 * @param description the payloads and why, as the suite's header states them: {@code 1300 B (given)},
 *     or each family's with the rule and the values it was applied to
 */
public record LoopbackTcpPayload(int ipv4Bytes, int ipv6Bytes, String description) {
    /** zperf's TCP write, bytes. */
    public static final int ZPERF_BYTES = LoopbackSuite.ZPERF_PAYLOAD_BYTES;

    /** @throws NullPointerException without a description */
    public LoopbackTcpPayload {
        Objects.requireNonNull(description, "description");
    }

    /**
     * @param bytes bytes per write of every TCP marker, as the user gave them (range-checked by
     *     the markers' {@link io.linerate.core.TransferSpec})
     * @return that payload for both families, described as {@code 1300 B (given)}
     */
    public static LoopbackTcpPayload given(int bytes) {
        return new LoopbackTcpPayload(bytes, bytes, bytes + " B (given)");
    }

    /**
     * @return zperf's 1220 bytes in both families, described as {@code 1220 B (zperf's)}: the
     *     default where the caller does not know the loopback MSS (the CLI reads it with
     *     transport-nio's {@code PathFacts.readLoopbackTcpMss} and passes it to {@link #of})
     */
    public static LoopbackTcpPayload zperf() {
        return new LoopbackTcpPayload(ZPERF_BYTES, ZPERF_BYTES, ZPERF_BYTES + " B (zperf's)");
    }

    /**
     * The rule of the class comment applied to each family's loopback MSS.
     *
     * @param ipv4 the IPv4 loopback MSS, read or derived, where known
     * @param ipv6 the IPv6 loopback MSS, read or derived, where known
     * @return each family's payload, described as {@code IPv4 1228 B (the MSS at loopback MTU 1280
     *     with TCP timestamps: one full segment per write), IPv6 1208 B (...)}
     */
    public static LoopbackTcpPayload of(Optional<TcpMss> ipv4, Optional<TcpMss> ipv6) {
        int v4 = bytes(ipv4);
        int v6 = bytes(ipv6);
        return new LoopbackTcpPayload(v4, v6, String.format(Locale.ROOT, "IPv4 %s, IPv6 %s", why(ipv4, v4), why(ipv6, v6)));
    }

    private static int bytes(Optional<TcpMss> mss) {
        return mss.map(TcpMss::bytes).filter(m -> m < 2 * ZPERF_BYTES).orElse(ZPERF_BYTES);
    }

    private static String why(Optional<TcpMss> mss, int bytes) {
        if (mss.isEmpty()) {
            return bytes + " B (zperf's; the loopback MSS could be neither read nor derived)";
        }
        String at = mss.get().read().isPresent() ? "read on a loopback connection (" + mss.get().read().get().how() + ")"
                : String.format(Locale.ROOT, "at loopback MTU %d%s%s", mss.get().pathMtu(),
                        mss.get().optionBytes() > 0 ? " with TCP timestamps" : "",
                        mss.get().unreadBecause().isEmpty() ? "" : ", derived; not read: " + mss.get().unreadBecause());
        if (bytes == mss.get().bytes()) {
            return bytes + " B (the MSS " + at + ": one full segment per write)";
        }
        return String.format(Locale.ROOT, "%d B (zperf's; the MSS %s, %d B, holds two or more writes, which the stack "
                + "joins into full segments)", bytes, at, mss.get().bytes());
    }

    /**
     * @param family a TCP marker's address family
     * @return that family's bytes per write
     */
    public int bytes(AddressFamily family) {
        return family == AddressFamily.IPV4 ? ipv4Bytes : ipv6Bytes;
    }
}
