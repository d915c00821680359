package io.linerate.core;
import io.linerate.core.spi.Transport;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the far end of a transfer runs: in this JVM over the loopback address of the spec's family
 * ({@link #loopback()}), or on a peer reached at {@code host:port} ({@link #remote}), whose agent
 * runs the other end. A stream spec may name its peer more closely: linerate's agent with its
 * secret, direction and streams ({@link AgentPeer}), an iperf3 server ({@link Iperf3Peer}) or an
 * iperf 2 server ({@link Iperf2Peer}). A transport that cannot reach a peer says so through
 * {@link Transport#unsupportedReason}.
 */
public sealed interface Endpoint permits Endpoint.Loopback, Endpoint.Remote, AgentPeer, Iperf3Peer, Iperf2Peer {

    /** @return the peer's address; empty for {@link #loopback()} */
    default Optional<Remote> remoteAddress() {
        return Optional.empty();
    }

    /** @return both ends in this JVM, over 127.0.0.1 or ::1 */
    static Endpoint loopback() {
        return Loopback.INSTANCE;
    }

    /**
     * @param host a host name, an IPv4 literal or an IPv6 literal (without brackets)
     * @param port the peer's control port, 1..65535
     * @return a remote endpoint
     * @throws IllegalArgumentException naming the value when the host is blank or holds spaces, or
     *     the port is outside 1..65535
     */
    static Remote remote(String host, int port) {
        return new Remote(host, port);
    }

    /**
     * Parses {@code HOST:PORT}: a host name or IPv4 literal ({@code 198.18.0.2:7001}), or an IPv6
     * literal in brackets ({@code [2001:2::2]:7001}), as URIs write them (RFC 3986, section 3.2.2).
     *
     * @param text the text to parse
     * @return a remote endpoint
     * @throws IllegalArgumentException naming the text and the accepted forms
     */
    static Remote parse(String text) {
        Objects.requireNonNull(text, "text");
        String host;
        String port;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0 || close + 1 >= text.length() || text.charAt(close + 1) != ':') {
                throw badPeer(text);
            }
            host = text.substring(1, close);
            port = text.substring(close + 2);
        } else {
            int colon = text.lastIndexOf(':');
            if (colon <= 0 || text.indexOf(':') != colon) {
                throw badPeer(text);
            }
            host = text.substring(0, colon);
            port = text.substring(colon + 1);
        }
        if (port.isEmpty() || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("peer port '" + port + "' in '" + text + "' is not a number; allowed: 1..65535");
        }
        if (port.length() > 5) {
            throw new IllegalArgumentException("peer port '" + port + "' in '" + text + "' is out of range; allowed: 1..65535");
        }
        return remote(host, Integer.parseInt(port));
    }

    private static IllegalArgumentException badPeer(String text) {
        return new IllegalArgumentException("peer '" + text
                + "' is not HOST:PORT; allowed: name:port, IPv4:port or [IPv6]:port, port 1..65535");
    }

    /** Both ends in this JVM. */
    record Loopback() implements Endpoint {
        private static final Loopback INSTANCE = new Loopback();

        @Override
        public String toString() {
            return "loopback";
        }
    }

    /**
     * A peer's agent at {@code host:port}.
     *
     * @param host host name or address literal, IPv6 without brackets
     * @param port control port, 1..65535
     */
    record Remote(String host, int port) implements Endpoint {
        /** Validates both parts. */
        public Remote {
            Objects.requireNonNull(host, "host");
            if (host.isBlank() || host.chars().anyMatch(Character::isWhitespace)) {
                throw new IllegalArgumentException("peer host '" + host + "' is not a host name or address");
            }
            if (port < 1 || port > 65535) {
                throw new IllegalArgumentException("peer port " + port + " is out of range; allowed: 1..65535");
            }
        }

        @Override
        public Optional<Remote> remoteAddress() {
            return Optional.of(this);
        }

        @Override
        public String toString() {
            return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
        }
    }
}
