package io.linerate.suite;

import io.linerate.core.AddressFamily;
import io.linerate.suite.LoopbackSuite.Marker;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * How the {@link LoopbackSuite} fits zperf's markers to the loopback of the namespace it runs in:
 * whether a {@code *_frag} marker can fragment at all under the loopback MTU, and whether its run
 * did (the stack's IP fragment counters, {@link FragmentCounters}). See the suite's class comment
 * for the rules; the TCP markers' payload is {@link LoopbackTcpPayload}'s.
 */
final class LoopbackRules {
    /** Why a fragmenting run whose stack created no fragments is invalid. */
    static final String NO_FRAGMENTS = "no IP fragments were created: the datagrams were not fragmented";

    private LoopbackRules() {}

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
