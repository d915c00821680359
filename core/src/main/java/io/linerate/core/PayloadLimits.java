package io.linerate.core;

/**
 * The payload sizes a stream may carry, bytes, by protocol, family and path MTU: the ranges
 * {@link TransferSpec.Builder#build()} checks a payload against, and the UDP payload the suite picks
 * for a path.
 */
public final class PayloadLimits {
    private PayloadLimits() {}

    /** @return the largest payload the protocol and family allow, in bytes */
    public static int maxPayloadBytes(Protocol protocol, AddressFamily family) {
        return protocol == Protocol.UDP ? family.maxUdpPayloadBytes() : TransferSpec.MAX_TCP_PAYLOAD_BYTES;
    }

    /**
     * The largest UDP payload that crosses a path of this MTU unfragmented, capped at
     * {@value TransferSpec#UDP_PAYLOAD_CAP_BYTES}: {@code min(1460, MTU − IP header − 8)}, where an IPv4
     * datagram holds at most 65535 bytes. For example 1460 at Ethernet's 1500 over IPv4 (1472 would
     * fit), 1452 over IPv6; at MTU 1280, 1252 over IPv4 and 1232 over IPv6; 1460 on the host's
     * loopback (65536).
     *
     * @param family the address family
     * @param pathMtu the path MTU, bytes
     * @return bytes of UDP payload, linerate's {@link DatagramHeader} included
     * @throws IllegalArgumentException if the MTU cannot carry a datagram with linerate's header
     */
    public static int unfragmentedUdpPayloadBytes(AddressFamily family, int pathMtu) {
        int ip = family == AddressFamily.IPV4 ? Math.min(pathMtu, 65535) : pathMtu;
        int fits = ip - family.ipHeaderBytes() - AddressFamily.UDP_HEADER_BYTES;
        if (fits < DatagramHeader.BYTES) {
            throw new IllegalArgumentException("MTU " + pathMtu + " bytes is out of range for UDP over IPv" + family.label()
                    + "; allowed: " + (DatagramHeader.BYTES + family.ipHeaderBytes() + AddressFamily.UDP_HEADER_BYTES)
                    + " bytes or more");
        }
        return Math.min(TransferSpec.UDP_PAYLOAD_CAP_BYTES, fits);
    }

    /** @return the smallest payload this protocol allows, in bytes (UDP carries a {@link DatagramHeader} of 32 bytes) */
    public static int minPayloadBytes(Protocol protocol) {
        return protocol == Protocol.UDP ? DatagramHeader.BYTES : 1;
    }
}
