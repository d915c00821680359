package io.linerate.peers.server;

import java.net.InetSocketAddress;

/**
 * What every linerate server is, whoever its clients are (linerate's own, {@code iperf3 -c},
 * {@code iperf -c}): started from a {@link PeerServerConfig} by {@link PeerServerConfig#start},
 * bound and serving until {@link #close()}, with at most {@code limits().maxSessions()} tests at
 * once, and reporting each test it serves to the {@link ServedTestListener} it was started with.
 */
public interface PeerServer extends AutoCloseable {
    /** @return the address served, with the port the kernel chose for port 0 */
    InetSocketAddress address();

    /** @return tests running now: those the session limit bounds */
    int activeSessions();

    /**
     * Stops serving: closes the ports, ends every running test (its client is told, where the
     * protocol can say it) and waits for their threads, each wait bounded by the server's I/O
     * timeout (a linerate session by its deadline); a test still running then has its sockets
     * closed. Every socket and thread the server opened is released. Calling it again does nothing.
     */
    @Override
    void close();
}
