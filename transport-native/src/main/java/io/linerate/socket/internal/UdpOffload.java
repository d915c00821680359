package io.linerate.socket.internal;

import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;

/**
 * UDP generic segmentation and receive offload for {@code --gso} (iperf3's {@code --gsro}):
 * {@code UDP_SEGMENT} on the sending socket, {@code UDP_GRO} on the receiving one (udp(7)). A
 * kernel that refuses either option refuses the stream, naming the option, the errno and the
 * kernel version that brought it; there is no silent fallback to plain datagrams.
 */
final class UdpOffload {
    /** Segments one UDP GSO send may carry: the kernel's {@code UDP_MAX_SEGMENTS} (64 before Linux 6.13). */
    static final int MAX_SEGMENTS = 64;
    /** Largest UDP payload of one IPv4 datagram, bytes: 65535 − 20 (IPv4 header) − 8 (UDP header). */
    static final int MAX_DATAGRAM_BYTES = 65507;

    private UdpOffload() {}

    /**
     * @param payloadBytes the segment size, bytes
     * @return segments per GSO send: as many payload-sized segments as fit in one datagram,
     *     at most {@value #MAX_SEGMENTS}, at least 1
     */
    static int segmentsPerSend(int payloadBytes) {
        return Math.max(1, Math.min(MAX_SEGMENTS, MAX_DATAGRAM_BYTES / payloadBytes));
    }

    /**
     * Turns the offload on: {@code UDP_SEGMENT} of {@code payloadBytes} on a sending socket,
     * {@code UDP_GRO} on a receiving one.
     *
     * @throws IOException naming the option, the errno (ENOPROTOOPT on a kernel without it) and
     *     the kernel version that brought it
     */
    static void enable(NativeSocket socket, boolean sending, int payloadBytes) throws IOException {
        try {
            if (sending) {
                socket.options().udpSegment(payloadBytes);
            } else {
                socket.options().udpGro();
            }
        } catch (NativeSocketException e) {
            throw refused(e);
        }
    }

    /** @return why --gso is refused: the failed setsockopt(2) and the kernel versions that bring the options */
    static IOException refused(NativeSocketException e) {
        return new IOException("--gso is refused: " + e.getMessage() + "; UDP GSO needs Linux 4.18+ (UDP_SEGMENT) "
                + "on the sender and UDP GRO Linux 5.0+ (UDP_GRO) on the receiver", e);
    }
}
