package io.linerate.core.spi.ends;

import java.io.IOException;
import java.net.SocketAddress;

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

    /** @return why the server stopped before {@link #stop}, or null */
    Throwable failure();

    /** Stops serving and releases the listener, the connections and the thread; idempotent. */
    @Override
    void close();
}
