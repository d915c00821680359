package io.linerate.peers.server;

import io.linerate.peers.agent.server.AgentLimits;
import java.io.IOException;
import java.net.InetAddress;
import java.time.Duration;

/**
 * The settings every linerate server has, the agent's ({@code AgentConfig}), iperf3's
 * ({@code Iperf3ServerConfig}) and iperf 2's ({@code Iperf2ServerConfig}) alike, and the one way to
 * start any of them ({@link #start}). Each keeps its own options beside these (the agent its shared
 * secret). The servers for unmodified peer tools' clients check theirs the same way, by
 * {@link #check}.
 */
public interface PeerServerConfig {
    /** @return the address of the TCP and UDP ports (the same number) */
    InetAddress bind();

    /** @return the port number, 0 (ephemeral)..65535 */
    int port();

    /** @return the client addresses served */
    AllowFrom allowFrom();

    /** @return tests at once, longest test, highest rate, largest write or datagram */
    AgentLimits limits();

    /** @return how long a silent read or test may wait, at least 1 ms */
    Duration ioTimeout();

    /**
     * Binds the server's ports and starts serving.
     *
     * @param listener receives each served test's start, interval lines and summary
     * @return the server, serving until {@link PeerServer#close()}
     * @throws IOException when a port cannot be bound; the message names the address and port
     */
    PeerServer start(ServedTestListener listener) throws IOException;

    /** @return the settings this config shares with every server's */
    default PeerServerSettings settings() {
        return new PeerServerSettings(bind(), port(), allowFrom(), limits(), ioTimeout());
    }

    /**
     * Checks a server's settings: none null, the port in range, the timeout at least 1 ms, and a
     * non-empty {@code allowFrom} unless {@code bind} is a loopback address, since the tool's
     * clients cannot send linerate's shared secret.
     *
     * @param command the command line that serves the tool, named in the error, e.g. {@code serve --iperf3}
     * @param tool the tool whose clients are served, e.g. {@code iperf3} or {@code iperf 2}
     * @throws NullPointerException naming a null setting
     * @throws IllegalArgumentException for a port outside 0..65535, a timeout under 1 ms, or a
     *     non-loopback bind without {@code --allow-from}; the message names the value and the
     *     allowed range
     */
    static void check(String command, String tool, InetAddress bind, int port, AllowFrom allowFrom, AgentLimits limits,
                      Duration ioTimeout) {
        new PeerServerSettings(bind, port, allowFrom, limits, ioTimeout);
        if (allowFrom.isEmpty() && !bind.isLoopbackAddress()) {
            throw new IllegalArgumentException(command + " binds " + bind.getHostAddress()
                    + ", which is not a loopback address: it needs --allow-from CIDR[,CIDR...], since " + tool + " clients "
                    + "cannot send linerate's shared secret");
        }
    }
}
