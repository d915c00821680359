package io.linerate.jni;

import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSource;
import io.linerate.jni.internal.Jni;
import io.linerate.jni.internal.SockDiagConnection;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * A TCP connection's {@code struct tcp_info} (Linux {@code <linux/tcp.h>}) through
 * {@code sock_diag} netlink ({@code NETLINK_SOCK_DIAG}, sock_diag(7)), as {@code ss -ti} reads it:
 * one {@code inet_diag_req_v2} for the connection's exact tuple asking for {@code INET_DIAG_INFO},
 * so no descriptor of the connection is needed, only that it lives in this process's network
 * namespace. Registered for {@link java.util.ServiceLoader} as a {@link TcpInfoSource}
 * ({@code META-INF/services/io.linerate.core.spi.tcp.TcpInfoSource} in {@code linerate-native}).
 * Each read opens a netlink socket, waits at most {@link #TIMEOUT_MILLIS} for the answer, and
 * closes it; no privilege is needed for a connection of the same user namespace.
 */
public final class SockDiagTcpInfo implements TcpInfoSource {
    /** Bound on the wait for the kernel's answer to one read ({@code SO_RCVTIMEO}), ms. */
    public static final int TIMEOUT_MILLIS = 1000;

    @Override
    public String name() {
        return "sock_diag";
    }

    @Override
    public Optional<String> unavailabilityCause() {
        return Optional.ofNullable(Jni.LIBRARY.tryLoad());
    }

    /**
     * {@inheritDoc}
     *
     * @throws UnsupportedOperationException when {@code liblinerate-native.so} cannot be loaded
     *     (the loader's cause)
     */
    @Override
    public TcpConnectionInfo connection(InetSocketAddress local, InetSocketAddress remote) {
        check("local", local);
        check("remote", remote);
        if ((local.getAddress() instanceof Inet4Address) != (remote.getAddress() instanceof Inet4Address)) {
            throw new IllegalArgumentException("local address " + local + " and remote address " + remote
                    + " are of different families; allowed: both IPv4 or both IPv6");
        }
        String notLoaded = Jni.LIBRARY.tryLoad();
        if (notLoaded != null) {
            throw new UnsupportedOperationException(notLoaded);
        }
        return new SockDiagConnection(local, remote, TIMEOUT_MILLIS);
    }

    private static void check(String which, InetSocketAddress a) {
        if (a == null || a.isUnresolved() || a.getPort() == 0) {
            throw new IllegalArgumentException(which + " address " + a
                    + " is not a connection's end; allowed: a resolved address with a port in 1..65535");
        }
    }
}
