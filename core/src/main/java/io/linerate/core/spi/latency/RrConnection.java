package io.linerate.core.spi.latency;

import io.linerate.core.spi.tcp.TcpInfoSources;
import java.net.InetSocketAddress;

/**
 * A request/response flow's one connection (TCP_RR; TCP_CRR has none that lasts), as the
 * coordinator reads its {@code TCP_INFO} (Linux {@code <linux/tcp.h>}) at the measured window's
 * edges, on its own thread while the flow runs: a transport reads it through a TCP_INFO source by
 * the connection's addresses ({@link #byAddresses}), or by its descriptor.
 */
public interface RrConnection {
    /**
     * @return this host's end of the connection, or why it cannot be read
     * @throws IllegalArgumentException when the connection cannot be looked up
     */
    TcpInfoSources.Found client();

    /**
     * @return the server's end of the same connection, where the server runs in this JVM, or why it
     *     cannot be read
     * @throws IllegalArgumentException when the connection cannot be looked up
     */
    TcpInfoSources.Found server();

    /**
     * @param local the flow's end's socket address
     * @param remote the server's end's
     * @return the connection read through {@link TcpInfoSources#connection} by its addresses (the
     *     server's end with the two swapped)
     */
    static RrConnection byAddresses(InetSocketAddress local, InetSocketAddress remote) {
        return new RrConnection() {
            @Override
            public TcpInfoSources.Found client() {
                return TcpInfoSources.connection(local, remote);
            }

            @Override
            public TcpInfoSources.Found server() {
                return TcpInfoSources.connection(remote, local);
            }
        };
    }
}
