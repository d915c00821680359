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

    /**
     * The side of a server serving in this JVM.
     *
     * @param s a started server
     * @return its side: {@link #finish} stops it first, as it counts a response only once written in
     *     full, so that a flow that finished reading one sees it counted
     */
    static RrServerSide of(RrServerEnd s) {
        return new RrServerSide() {
            @Override
            public SocketAddress address() throws IOException {
                return s.address();
            }

            @Override
            public Throwable failure() {
                return s.failure();
            }

            @Override
            public long served() {
                return s.served();
            }

            @Override
            public long[] finish() {
                s.stop();
                return new long[] {s.accepts(), s.served()};
            }
        };
    }
}
