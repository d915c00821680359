package io.linerate.peers.agent.server;

import io.linerate.core.Units;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.internal.PeerEndsLookup;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.PeerServerConfig;
import io.linerate.peers.server.PeerServerSettings;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How an agent serves: the settings every linerate server has ({@link PeerServerConfig}), and the
 * agent's own shared secret.
 *
 * @param bind the address of the control port
 * @param port the control port, 0 (ephemeral) ..65535
 * @param allowFrom the client addresses served; a connection from any other is closed before
 *     anything is read. Optional beside the secret, which is what admits a client off loopback
 * @param secret the shared secret; required unless {@code bind} is a loopback address
 * @param limits what a session may ask for
 * @param handshakeTimeout bound on every control read before a stream starts
 * @param transport the transport the agent's ends of streams, ping-pongs and request/response runs
 *     use ({@link io.linerate.core.spi.Transport#peerEnds()}); {@value #DEFAULT_TRANSPORT} unless given.
 *     Raw frames take the transport that runs their spec.
 */
public record AgentConfig(InetAddress bind, int port, AllowFrom allowFrom, Optional<byte[]> secret, AgentLimits limits,
                          Duration handshakeTimeout, String transport) implements PeerServerConfig {
    /** The control port when none is given. */
    public static final int DEFAULT_PORT = Control.DEFAULT_PORT;
    /** Default bound on a control read before a stream starts. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Control.DEFAULT_HANDSHAKE_TIMEOUT;
    /** The transport of the agent's ends when none is given. */
    public static final String DEFAULT_TRANSPORT = PeerEndsLookup.DEFAULT_TRANSPORT;

    /**
     * @throws IllegalArgumentException for a port out of range, an empty secret, a non-loopback
     *     bind address without a secret, or a blank transport name
     */
    public AgentConfig {
        Objects.requireNonNull(bind, "bind");
        Objects.requireNonNull(transport, "transport");
        if (transport.isBlank()) {
            throw new IllegalArgumentException("the agent's transport name is blank; allowed: a transport's name, "
                    + "such as " + DEFAULT_TRANSPORT);
        }
        Objects.requireNonNull(allowFrom, "allowFrom");
        Objects.requireNonNull(secret, "secret");
        Objects.requireNonNull(limits, "limits");
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range; allowed: 0 (ephemeral)..65535");
        }
        if (secret.isPresent() && secret.get().length == 0) {
            throw new IllegalArgumentException("the shared secret is empty");
        }
        if (secret.isEmpty() && !bind.isLoopbackAddress()) {
            throw new IllegalArgumentException("the agent binds " + bind.getHostAddress()
                    + ", which is not a loopback address: it needs a shared secret (--secret-file) so that only "
                    + "clients that hold it can start streams");
        }
        if (handshakeTimeout.toMillis() < 1) {
            throw new IllegalArgumentException("handshake timeout " + Units.text(handshakeTimeout)
                    + " is out of range; allowed: 1 ms or more");
        }
    }

    /** An agent whose ends run on the {@value #DEFAULT_TRANSPORT} transport. */
    public AgentConfig(InetAddress bind, int port, AllowFrom allowFrom, Optional<byte[]> secret, AgentLimits limits,
                       Duration handshakeTimeout) {
        this(bind, port, allowFrom, secret, limits, handshakeTimeout, DEFAULT_TRANSPORT);
    }

    /** An agent that serves every client address ({@link AllowFrom#anyone()}). */
    public AgentConfig(InetAddress bind, int port, Optional<byte[]> secret, AgentLimits limits, Duration handshakeTimeout) {
        this(bind, port, AllowFrom.anyone(), secret, limits, handshakeTimeout);
    }

    /**
     * @param s the settings every server has; its I/O timeout is the handshake timeout
     * @param secret the shared secret, as the constructor's
     * @return the agent's config with them
     * @throws IllegalArgumentException as the constructor
     */
    public static AgentConfig of(PeerServerSettings s, Optional<byte[]> secret) {
        return new AgentConfig(s.bind(), s.port(), s.allowFrom(), secret, s.limits(), s.ioTimeout());
    }

    /**
     * @param name the transport the agent's ends run on; {@link Agent#start} refuses one that offers
     *     no ends for peers
     * @return this config with that transport
     */
    public AgentConfig withTransport(String name) {
        return new AgentConfig(bind, port, allowFrom, secret, limits, handshakeTimeout, name);
    }

    /** @return {@link #handshakeTimeout()}: a stream's own reads are bounded by its spec's I/O timeout */
    @Override
    public Duration ioTimeout() {
        return handshakeTimeout;
    }

    /** Starts an {@link Agent} with these settings; see {@link PeerServerConfig#start}. */
    @Override
    public Agent start(ServedTestListener listener) throws IOException {
        return Agent.start(this, listener);
    }
}
