package io.linerate.core.spi.tcp;

import io.linerate.core.spi.Providers;
import java.net.InetSocketAddress;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Finds a connection's {@code tcp_info} reader through the first {@link TcpInfoSource} on the class
 * path that is available. Without one, {@link #connection} says why instead of reading zeros.
 */
public final class TcpInfoSources {
    private static final Logger LOG = LoggerFactory.getLogger(TcpInfoSources.class);
    /** Why nothing reads {@code tcp_info} when no source is on the class path. */
    public static final String NO_SOURCE = "no TCP_INFO source on the class path "
            + "(linerate-native provides one over sock_diag netlink on Linux)";

    private TcpInfoSources() {}

    /**
     * Prepares reads of one connection's {@code tcp_info} through the first source that can read.
     *
     * @param local the connection's local address and port
     * @param remote its remote address and port
     * @return the reader, or why there is none
     * @throws IllegalArgumentException when a source rejects the addresses (unresolved, port 0, or
     *     of different families)
     */
    public static Found connection(InetSocketAddress local, InetSocketAddress remote) {
        StringBuilder why = new StringBuilder();
        for (TcpInfoSource s : Providers.load(TcpInfoSource.class, "TCP_INFO source")) {
            try {
                return new Found(s.connection(local, remote), null);
            } catch (UnsupportedOperationException | LinkageError e) {
                LOG.debug("{} cannot read TCP_INFO: {}", s.name(), e.getMessage());
                why.append(why.length() == 0 ? "" : "; ").append(s.name()).append(": ").append(e.getMessage());
            }
        }
        return new Found(null, why.length() == 0 ? NO_SOURCE : why.toString());
    }

    /**
     * A connection's reader, or why there is none.
     *
     * @param info the reader; null when no source can read
     * @param unavailable why no source can read; null when one can
     */
    public record Found(TcpConnectionInfo info, String unavailable) {}
}
