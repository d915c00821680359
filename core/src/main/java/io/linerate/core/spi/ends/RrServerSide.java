package io.linerate.core.spi.ends;

import io.linerate.core.TransferException;
import java.io.IOException;
import java.net.SocketAddress;

/** The server end of a request/response run, as the flows see it: in this JVM or on a peer. */
public interface RrServerSide {

    /**
     * @return where the flows connect
     * @throws IOException when it cannot be known
     */
    SocketAddress address() throws IOException;

    /** @return why the server ended early, or null (also when it cannot be known during the run) */
    Throwable failure();

    /** @return responses sent so far, as far as known here (for failure messages), or -1 when unknown */
    long served();

    /**
     * Called once every flow has ended: stops the server's counting.
     *
     * @return {accepted connections, responses written in full} over the whole run
     * @throws IOException when the server's counts cannot be read
     * @throws TransferException when the server failed or stopped
     */
    long[] finish() throws IOException, TransferException;
}
