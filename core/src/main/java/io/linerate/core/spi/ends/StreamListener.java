package io.linerate.core.spi.ends;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;

/** A TCP listener on an ephemeral port, waiting for the peer's one data connection of a stream. */
public interface StreamListener extends Closeable {

    /**
     * @return the port the listener is bound to, 1..65535
     * @throws IOException when the listener is closed
     */
    int port() throws IOException;

    /**
     * Accepts the data connection, bounded by the spec's I/O timeout, and closes the listener.
     *
     * @param from the peer's address: a connection from another address is closed and not counted
     * @return the connected end
     * @throws IOException when no connection from {@code from} came within the I/O timeout
     */
    StreamChannel accept(InetAddress from) throws IOException;
}
