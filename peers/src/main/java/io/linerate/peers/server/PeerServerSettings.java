package io.linerate.peers.server;

import io.linerate.core.Units;
import io.linerate.peers.agent.server.AgentLimits;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings every linerate server's config holds ({@link PeerServerConfig}), as one value: what
 * a command that can start any of the servers builds once, and each config is made from
 * ({@code AgentConfig.of}, {@code Iperf3ServerConfig.of}, {@code Iperf2ServerConfig.of}) with its
 * own options beside it.
 *
 * @param bind the address served
 * @param port the port number, 0 (ephemeral)..65535
 * @param allowFrom the client addresses served
 * @param limits tests at once, longest test, highest rate, largest write or datagram, streams a test
 * @param ioTimeout how long a silent read or test may wait, at least 1 ms
 */
public record PeerServerSettings(InetAddress bind, int port, AllowFrom allowFrom, AgentLimits limits, Duration ioTimeout) {
    /**
     * @throws NullPointerException naming a null setting
     * @throws IllegalArgumentException for a port outside 0..65535 or a timeout under 1 ms, naming
     *     the value and the allowed range
     */
    public PeerServerSettings {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(allowFrom, "allowFrom");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(ioTimeout, "ioTimeout");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range; allowed: 0 (ephemeral)..65535");
        }
        if (ioTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("I/O timeout " + Units.text(ioTimeout) + " is out of range; allowed: 1 ms or more");
        }
    }

    /** @return these settings with {@code port} instead */
    public PeerServerSettings withPort(int port) {
        return new PeerServerSettings(bind, port, allowFrom, limits, ioTimeout);
    }

    /** @return these settings with {@code ioTimeout} instead */
    public PeerServerSettings withIoTimeout(Duration ioTimeout) {
        return new PeerServerSettings(bind, port, allowFrom, limits, ioTimeout);
    }
}
