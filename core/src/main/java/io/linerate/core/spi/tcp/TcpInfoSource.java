package io.linerate.core.spi.tcp;

import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * Reads the {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) of a TCP connection of this
 * host's network namespace named by its two socket addresses, without a descriptor of it. Found by
 * {@link TcpInfoSources} through {@link java.util.ServiceLoader} (register it in
 * {@code META-INF/services/io.linerate.core.spi.tcp.TcpInfoSource}); the native module
 * ({@code linerate-native}) provides one over Linux's {@code sock_diag} netlink, as {@code ss -ti}
 * reads it. Implementations need a public no-argument constructor that does no I/O and never throws.
 */
public interface TcpInfoSource {

    /** @return the source's name, such as {@code sock_diag} */
    String name();

    /** @return why this source cannot read any connection on this host, or empty when it can */
    Optional<String> unavailabilityCause();

    /**
     * Prepares reads of one connection's {@code tcp_info}; reads nothing yet.
     *
     * @param local the connection's local address and port, as its socket's {@code getLocalAddress()}
     * @param remote the connection's remote address and port, as its socket's {@code getRemoteAddress()}
     * @return a reusable reader of that connection
     * @throws IllegalArgumentException naming the address when either is unresolved, has port 0, or
     *     their families differ
     * @throws UnsupportedOperationException saying why when this source cannot read on this host
     */
    TcpConnectionInfo connection(InetSocketAddress local, InetSocketAddress remote);
}
