package io.linerate.examples.cli;

import io.linerate.core.AddressFamily;
import io.linerate.core.PayloadLimits;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.nio.PathFacts;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * The payload of a stream over loopback when none is given: iperf3's 128 KiB TCP write; for UDP
 * the largest datagram that does not fragment at the loopback MTU, at most 1460 bytes (iperf3's
 * default without an MSS), by {@link PayloadLimits#unfragmentedUdpPayloadBytes}.
 */
final class LoopbackPayload {
    private LoopbackPayload() {}

    /** @return iperf3's 128 KiB TCP write; for UDP the largest datagram that does not fragment on loopback, at most 1460, bytes */
    static int bytes(Protocol p, AddressFamily f) {
        if (p == Protocol.TCP) {
            return TransferSpec.IPERF3_TCP_PAYLOAD_BYTES;
        }
        OptionalInt mtu = PathFacts.mtu(f.loopbackAddress());
        return mtu.isPresent() ? PayloadLimits.unfragmentedUdpPayloadBytes(f, mtu.getAsInt()) : TransferSpec.UDP_PAYLOAD_CAP_BYTES;
    }

    /** @return how {@link #bytes} found its value, for a run's header */
    static String note(Protocol p, AddressFamily f) {
        if (p == Protocol.TCP) {
            return "iperf3's default TCP write (128 KiB)";
        }
        OptionalInt mtu = PathFacts.mtu(f.loopbackAddress());
        if (mtu.isEmpty()) {
            return "the loopback MTU cannot be read; iperf3's default without an MSS (1460 B)";
        }
        int ip = f == AddressFamily.IPV4 ? Math.min(mtu.getAsInt(), 65535) : mtu.getAsInt();
        int fits = ip - f.ipHeaderBytes() - AddressFamily.UDP_HEADER_BYTES;
        return String.format(Locale.ROOT, "the largest datagram that does not fragment at loopback MTU %d is %d B "
                + "(MTU - %d IPv%s - 8 UDP)%s", mtu.getAsInt(), fits, f.ipHeaderBytes(), f.label(),
                fits > TransferSpec.UDP_PAYLOAD_CAP_BYTES ? ", capped at iperf3's default of "
                        + TransferSpec.UDP_PAYLOAD_CAP_BYTES + " B" : "");
    }
}
