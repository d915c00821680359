package io.linerate.core.spi.ends;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The measuring end of a ping-pong whose echo end runs on a peer: {@link #connect} it to the echo
 * end, then {@link #run} the sweep. Closing it releases its socket; {@link #run} releases it too.
 */
public interface PingPongClient extends AutoCloseable {

    /**
     * @return the local port, 1..65535: a UDP echo end connects to it
     * @throws IOException when the socket is closed
     */
    int localPort() throws IOException;

    /**
     * Connects to the echo end.
     *
     * @param echo the echo end's address
     * @param timeoutMillis the longest wait for a TCP connection, ms (at least 1)
     * @throws IOException when the connection is refused or not made in time
     */
    void connect(InetSocketAddress echo, long timeoutMillis) throws IOException;

    /**
     * @return the socket's options as requested and as the kernel applied them, with the TCP MSS on
     *     this end's path
     * @throws IOException when the socket is closed
     */
    AppliedOptions options() throws IOException;

    /**
     * Runs the sweep of the spec's message sizes against the connected echo end, then releases the
     * socket.
     *
     * @param clock the time source of every reading
     * @param facts where the run took place, for the result
     * @param options the options as {@link #options} read them, for the result
     * @param roundTrips receives in its element 0 the round trips completed, also when the sweep fails
     * @return the sweep's result
     * @throws TransferException when a round trip fails or times out
     */
    PingPongResult run(Clock clock, RunFacts facts, AppliedOptions options, long[] roundTrips)
            throws TransferException;

    /** Releases the socket; idempotent. */
    @Override
    void close();
}
