package io.linerate.nio;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import io.linerate.nio.LoopbackSuite.Marker;
import io.linerate.nio.LoopbackSuite.TcpPayload;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How the {@link LoopbackSuite} fits zperf's markers to the loopback of the namespace it runs in:
 * the TCP markers' payload from the two families' loopback MSS, whether a {@code *_frag} marker
 * can fragment at all under the loopback MTU, and whether its run did (the stack's IP fragment
 * counters, {@link FragmentCounters}). See the suite's class comment for the rules.
 */
final class LoopbackRules {
    /** Why a fragmenting run whose stack created no fragments is invalid. */
    static final String NO_FRAGMENTS = "no IP fragments were created: the datagrams were not fragmented";

    private LoopbackRules() {}

    /** The rule of {@link LoopbackSuite#defaultTcpPayload()} applied to the two families' MSS, where known. */
    static TcpPayload tcpPayload(Optional<TcpMss> ipv4, Optional<TcpMss> ipv6) {
        int zperf = LoopbackSuite.ZPERF_PAYLOAD_BYTES;
        if (ipv4.isEmpty() || ipv6.isEmpty()) {
            return new TcpPayload(zperf, "zperf's; the loopback MSS could not be derived");
        }
        int v4 = ipv4.get().bytes();
        int v6 = ipv6.get().bytes();
        int smaller = Math.min(v4, v6);
        String both = String.format(Locale.ROOT, "IPv4 %d B, IPv6 %d B at loopback MTU %d%s", v4, v6,
                ipv6.get().pathMtu(), ipv6.get().optionBytes() > 0 ? " with TCP timestamps" : "");
        if (smaller < zperf) {
            return new TcpPayload(smaller, "the smaller MSS of the two families (" + both
                    + "), below zperf's " + zperf + " B, so that no write leaves a runt segment");
        }
        return new TcpPayload(zperf, "zperf's; the smaller MSS of the two families is larger (" + both + ")");
    }

    /**
     * @return why a fragmenting marker cannot fragment here, or empty when the loopback MTU is below
     *     its datagram size (payload + IP and UDP headers)
     */
    static Optional<String> fragmentationUnavailable(Marker m, int payloadBytes) {
        int datagram = payloadBytes + m.family().ipHeaderBytes() + AddressFamily.UDP_HEADER_BYTES;
        OptionalLong mtu = loopbackMtu();
        if (mtu.isEmpty()) {
            return Optional.of("the loopback interface's MTU cannot be read, so fragmentation cannot be ensured");
        }
        if (mtu.getAsLong() >= datagram) {
            return Optional.of(String.format(Locale.ROOT,
                    "loopback MTU %d carries a %d-byte datagram whole, so it would not fragment; "
                            + "run with --netns (root) for a loopback MTU of %d",
                    mtu.getAsLong(), datagram, LoopbackSuite.FRAG_LOOPBACK_MTU));
        }
        return Optional.empty();
    }

    /** @return the MTU of this namespace's loopback interface, if it can be read */
    static OptionalLong loopbackMtu() {
        try {
            NetworkInterface lo = NetworkInterface.getByName("lo");
            if (lo == null) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(lo.getMTU());
        } catch (SocketException e) {
            return OptionalLong.empty();
        }
    }

    /** @return the family's IP fragment counters in this namespace, or empty where they cannot be read */
    static Optional<FragmentCounters> fragmentCounters(AddressFamily f) {
        return f == AddressFamily.IPV4 ? FragmentCounters.ipv4() : FragmentCounters.ipv6();
    }

    /**
     * @return the fragments the stack created between two readings of the counters (0 or less: none);
     *     empty where either reading is missing
     */
    static OptionalLong fragmentsCreated(Optional<FragmentCounters> before, Optional<FragmentCounters> after) {
        if (before.isEmpty() || after.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(after.get().fragmentsCreated() - before.get().fragmentsCreated());
    }
}
