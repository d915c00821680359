package io.linerate.core.spi.ends;

import io.linerate.core.latency.LatencyTcpInfo;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The echo end of a ping-pong with a client on another host: it answers each message with one of
 * the same size, on its own thread, until closed. Set up in this order: {@link #localPort} (to tell
 * the client), then {@link #accept} (TCP) or {@link #connectUdp} (UDP), then {@link #start}.
 * Closing it stops the thread within the spec's I/O timeout and releases its sockets; its counts
 * stay readable.
 */
public interface EchoEnd extends AutoCloseable {

    /**
     * @return the port the client connects or sends to, 1..65535
     * @throws IOException when the socket is closed
     */
    int localPort() throws IOException;

    /**
     * Accepts the client's one TCP connection and closes the listener.
     *
     * @param from the client's address: a connection from any other is refused
     * @param timeoutMillis the longest wait, ms (at least 1)
     * @throws IOException when no connection came in time, or it came from another address
     * @throws IllegalStateException on a UDP echo end
     */
    void accept(InetAddress from, long timeoutMillis) throws IOException;

    /**
     * Connects the UDP socket to the client's, so that it answers only the client.
     *
     * @param client the client's UDP socket
     * @throws IOException when the socket cannot be connected
     * @throws IllegalStateException on a TCP echo end
     */
    void connectUdp(InetSocketAddress client) throws IOException;

    /**
     * Starts answering on the end's own thread.
     *
     * @param maxSize the largest message answered, bytes
     * @throws IOException when the connected socket cannot be set up for answering
     * @throws IllegalStateException before {@link #accept} or {@link #connectUdp}, or when started twice
     */
    void start(int maxSize) throws IOException;

    /** @return the messages answered so far */
    long answered();

    /** @return the bytes answered so far */
    long answeredBytes();

    /**
     * @return the echo thread's CPU set as read back once it was pinned to the spec's server CPU
     *     ({@link io.linerate.core.Affinity#serverCpu()}), in the kernel's CPU list format; empty
     *     when it was not pinned
     */
    default Optional<String> cpus() {
        return Optional.empty();
    }

    /**
     * The kernel's {@code TCP_INFO} of a TCP echo end's socket, read as {@link #close} released it
     * (the client has closed its end by then; the socket still holds its figures). The figures'
     * window is the echo's life, from {@link #start} to {@link #close}: this end does not see where
     * the client's measured parts lie. Ends that do not read it keep this default.
     *
     * @return the figures or why they could not be read, once closed; empty for a UDP end, before
     *     {@link #close}, or where the end does not read {@code TCP_INFO}
     */
    default Optional<LatencyTcpInfo.End> tcpInfo() {
        return Optional.empty();
    }

    /** @return why the echo thread stopped before it was closed, or null */
    Throwable failure();

    /** Stops answering and releases the sockets and the thread; idempotent. */
    @Override
    void close();
}
