package io.linerate.core.spi.ends;

import io.linerate.core.latency.LatencyTcpInfo;
import java.io.IOException;
import java.net.SocketAddress;
import java.util.Optional;

/**
 * The server of a request/response run with flows on another host (netperf's netserver): it
 * accepts connections and answers each request of {@code requestBytes} with a response of
 * {@code responseBytes}, on its own thread, from {@link #start} to {@link #stop}.
 */
public interface RrServerEnd extends AutoCloseable {

    /**
     * @return where the flows connect
     * @throws IOException when the listener is closed
     */
    SocketAddress address() throws IOException;

    /** Starts serving on the server's own thread. */
    void start();

    /** Stops serving and waits for its thread; once it returns, the counts are final. */
    void stop();

    /** @return connections accepted so far */
    long accepts();

    /** @return responses written in full so far */
    long served();

    /**
     * The kernel's {@code TCP_INFO} of the server's connections, each read as the server saw its
     * client close it (or as {@link #close} released it): retransmits summed over the connections,
     * the other figures the first connection's. The window is each connection's life: the server
     * does not see the client's measured window. Servers that do not read it keep this default.
     *
     * @return the figures or why they could not be read, once {@link #stop stopped}; empty where
     *     the server does not read {@code TCP_INFO}
     */
    default Optional<LatencyTcpInfo.End> tcpInfo() {
        return Optional.empty();
    }

    /** @return why the server stopped before {@link #stop}, or null */
    Throwable failure();

    /** Stops serving and releases the listener, the connections and the thread; idempotent. */
    @Override
    void close();
}
