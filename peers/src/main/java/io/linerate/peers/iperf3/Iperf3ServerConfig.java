package io.linerate.peers.iperf3;

import io.linerate.peers.agent.server.AgentLimits;
import io.linerate.peers.server.AllowFrom;
import io.linerate.peers.server.PeerServerConfig;
import io.linerate.peers.server.PeerServerSettings;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/**
 * How linerate serves iperf3 clients ({@code linerate serve --iperf3}).
 *
 * @param bind the address of the TCP control port and the UDP port (the same number)
 * @param port 0 (ephemeral) ..65535; iperf3's own default is {@value #DEFAULT_PORT}
 * @param allowFrom the client addresses served; required (non-empty) unless {@code bind} is a
 *     loopback address, since iperf3 clients cannot send linerate's shared secret
 * @param limits sessions at once, longest test, highest rate and largest write or datagram
 * @param ioTimeout bound on every control read, every wait for a data stream and every silent
 *     data stream, at least 1 ms
 */
public record Iperf3ServerConfig(InetAddress bind, int port, AllowFrom allowFrom, AgentLimits limits, Duration ioTimeout)
        implements PeerServerConfig {
    /** iperf3's port. */
    public static final int DEFAULT_PORT = 5201;
    /** Default I/O timeout. */
    public static final Duration DEFAULT_IO_TIMEOUT = Duration.ofSeconds(10);

    /**
     * @throws IllegalArgumentException for a port out of range, a timeout under 1 ms, or a
     *     non-loopback bind without {@code --allow-from}
     */
    public Iperf3ServerConfig {
        PeerServerConfig.check("serve --iperf3", "iperf3", bind, port, allowFrom, limits, ioTimeout);
    }

    /**
     * @param s the settings every server has
     * @return the config of a server for iperf3 clients with them
     * @throws IllegalArgumentException as the constructor
     */
    public static Iperf3ServerConfig of(PeerServerSettings s) {
        return new Iperf3ServerConfig(s.bind(), s.port(), s.allowFrom(), s.limits(), s.ioTimeout());
    }

    /** Starts {@link Iperf3Agent} with these settings; see {@link PeerServerConfig#start}. */
    @Override
    public Iperf3Agent start(ServedTestListener listener) throws IOException {
        return Iperf3Agent.start(this, listener);
    }
}
