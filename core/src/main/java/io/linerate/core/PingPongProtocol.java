package io.linerate.core;

import java.util.Locale;
import java.util.Optional;

/** What a ping-pong or request/response bounces its messages over, with both ends in this JVM. */
public enum PingPongProtocol {
    /** TCP over the loopback address of the family. */
    TCP("tcp"),
    /** UDP over the loopback address of the family; one datagram per message. */
    UDP("udp"),
    /** A Unix-domain stream socket (Java 16+), its socket file in a fresh temporary directory. */
    UNIX_STREAM("unix_stream"),
    /** A Unix-domain datagram socket: not available in Java NIO; the native transport runs it. */
    UNIX_DATAGRAM("unix_datagram"),
    /** Two in-process {@link java.nio.channels.Pipe}s, one per direction. */
    PIPE("pipe");

    /** Largest request or response of a request/response transaction on a stream, bytes (16 MiB). */
    public static final int MAX_STREAM_MESSAGE_BYTES = 16 * 1024 * 1024;
    /**
     * Largest ping-pong message on a stream protocol, bytes (64 KiB, sfnt-pingpong's largest
     * default size). The client writes a whole message before it reads the echo, which the server
     * sends as it reads, so a message must fit the buffers of the path: a pipe holds 64 KiB.
     */
    public static final int MAX_PINGPONG_STREAM_BYTES = 64 * 1024;

    private final String label;

    PingPongProtocol(String label) {
        this.label = label;
    }

    /** @return the name used on the command line and in output, such as {@code unix_stream} */
    public String label() {
        return label;
    }

    /** @return whether messages are datagrams (one read or write per message) */
    public boolean datagram() {
        return this == UDP || this == UNIX_DATAGRAM;
    }

    /** @return whether the protocol runs over IP (and so has a family, TCP_NODELAY or traffic class) */
    public boolean ip() {
        return this == TCP || this == UDP;
    }

    /** @return why Java NIO cannot run the protocol, or empty when it can */
    public Optional<String> unsupportedReason() {
        if (this == UNIX_DATAGRAM) {
            return Optional.of("unix_datagram is not supported: Java NIO has Unix-domain stream sockets "
                    + "(SocketChannel) but no Unix-domain datagram channel");
        }
        return Optional.empty();
    }

    /**
     * @param family the address family, for UDP's limit
     * @return the largest message size in bytes: 65507 for UDP over IPv4, 65527 over IPv6,
     *     {@value #MAX_PINGPONG_STREAM_BYTES} for streams
     */
    public int maxMessageBytes(AddressFamily family) {
        return this == UDP ? family.maxUdpPayloadBytes() : MAX_PINGPONG_STREAM_BYTES;
    }

    /**
     * @param text a label, any case
     * @return the protocol
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static PingPongProtocol parse(String text) {
        for (PingPongProtocol p : values()) {
            if (p.label.equalsIgnoreCase(text)) {
                return p;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + text
                + "'; allowed: tcp, udp, unix_stream, unix_datagram, pipe");
    }

    @Override
    public String toString() {
        return label.toLowerCase(Locale.ROOT);
    }
}
