package io.linerate.peers.iperf2;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.PeerServerConfig;
import io.linerate.peers.server.PeerServerSettings;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/**
 * How linerate serves iperf 2 clients ({@code linerate serve --iperf2}).
 *
 * @param bind the address of the TCP and UDP ports (the same number)
 * @param port 0 (ephemeral)..65535; iperf 2's own default is {@value #DEFAULT_PORT}
 * @param allowFrom the client addresses served; required (non-empty) unless {@code bind} is a
 *     loopback address, since iperf 2 clients cannot send linerate's shared secret
 * @param limits tests at once (TCP and UDP together), longest test, highest rate, largest datagram
 * @param ioTimeout a test silent this long is ended; at least 1 ms
 */
public record Iperf2ServerConfig(InetAddress bind, int port, AllowFrom allowFrom, AgentLimits limits, Duration ioTimeout)
        implements PeerServerConfig {
    /** iperf 2's port. */
    public static final int DEFAULT_PORT = 5001;
    /** Default I/O timeout. */
    public static final Duration DEFAULT_IO_TIMEOUT = Duration.ofSeconds(10);

    /**
     * @throws IllegalArgumentException for a port out of range, a timeout under 1 ms, or a
     *     non-loopback bind without {@code --allow-from}
     */
    public Iperf2ServerConfig {
        PeerServerConfig.check("serve --iperf2", "iperf 2", bind, port, allowFrom, limits, ioTimeout);
    }

    /**
     * @param s the settings every server has
     * @return the config of a server for iperf 2 clients with them
     * @throws IllegalArgumentException as the constructor
     */
    public static Iperf2ServerConfig of(PeerServerSettings s) {
        return new Iperf2ServerConfig(s.bind(), s.port(), s.allowFrom(), s.limits(), s.ioTimeout());
    }

    /** Starts {@link Iperf2Agent} with these settings; see {@link PeerServerConfig#start}. */
    @Override
    public Iperf2Agent start(ServedTestListener listener) throws IOException {
        return Iperf2Agent.start(this, listener);
    }
}
