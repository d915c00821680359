package io.linerate.nio;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import io.linerate.nio.internal.LoopbackMssProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Facts of the path a transfer takes that the JDK does not offer as socket options, read from the
 * network namespace this JVM runs in: the MTU of the interface an address belongs to, and whether
 * TCP timestamps are on ({@code /proc/sys/net/ipv4/tcp_timestamps}, which also governs IPv6).
 * From them comes the TCP MSS ({@link TcpMss}, by {@link TcpMssDerivation}); the JDK has no {@code TCP_MAXSEG}.
 */
public final class PathFacts {
    private static final Logger LOG = LoggerFactory.getLogger(PathFacts.class);
    /** The sysctl that turns TCP timestamps on (1, 2) or off (0), for IPv4 and IPv6 alike. */
    static final Path TCP_TIMESTAMPS = Path.of("/proc/sys/net/ipv4/tcp_timestamps");

    private PathFacts() {}

    /**
     * @param address a local address, such as the loopback address of a family
     * @return the MTU of the interface holding it, bytes; empty where it cannot be read
     */
    public static OptionalInt mtu(InetAddress address) {
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(address);
            if (nif == null) {
                LOG.debug("no interface holds {}; its MTU is unknown", address);
                return OptionalInt.empty();
            }
            int mtu = nif.getMTU();
            return mtu > 0 ? OptionalInt.of(mtu) : OptionalInt.empty();
        } catch (SocketException e) {
            LOG.debug("cannot read the MTU of the interface of {}: {}", address, e.toString());
            return OptionalInt.empty();
        }
    }

    /** @return whether TCP timestamps are on in this namespace; empty where the sysctl cannot be read */
    public static Optional<Boolean> tcpTimestamps() {
        return tcpTimestamps(TCP_TIMESTAMPS);
    }

    /** @return whether the sysctl file holds a non-zero number (1: on with random offsets, 2: on without) */
    static Optional<Boolean> tcpTimestamps(Path sysctl) {
        try {
            String v = Files.readString(sysctl, StandardCharsets.US_ASCII).strip();
            return Optional.of(Integer.parseInt(v) != 0);
        } catch (IOException | NumberFormatException e) {
            LOG.debug("cannot read {}: {}; whether TCP timestamps are on is unknown", sysctl, e.toString());
            return Optional.empty();
        }
    }

    /**
     * The MSS of a TCP connection over this namespace's loopback interface, derived from its MTU
     * and the TCP options in use (the JDK cannot read {@code TCP_MAXSEG}).
     *
     * @param family the connection's address family
     * @return the derived MSS; empty where the MTU or the timestamp setting cannot be read
     */
    public static Optional<TcpMss> loopbackTcpMss(AddressFamily family) {
        return tcpMss(family, family.loopbackAddress());
    }

    /**
     * The MSS a TCP stream over this namespace's loopback uses, read from a probe connection after
     * {@value LoopbackMssProbe#PUSH_BYTES} bytes have crossed it ({@code tcpi_snd_mss}, through the
     * native layer's sock_diag): a fresh connection reads only half its peer's first window.
     *
     * @param family the connection's address family
     * @param bound the longest the probe may take
     * @return the MSS read at both ends of the probe; else derived ({@link #loopbackTcpMss}) and
     *     saying why it was not read; empty when neither can be had
     */
    public static Optional<TcpMss> readLoopbackTcpMss(AddressFamily family, Duration bound) {
        return LoopbackMssProbe.read(family, bound);
    }

    /**
     * @param family the connection's address family
     * @param local the connection's local address; its interface's MTU is taken as the path MTU
     * @return the derived MSS; empty where the MTU or the timestamp setting cannot be read
     */
    public static Optional<TcpMss> tcpMss(AddressFamily family, InetAddress local) {
        OptionalInt mtu = mtu(local);
        Optional<Boolean> timestamps = tcpTimestamps();
        if (mtu.isEmpty() || timestamps.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(TcpMssDerivation.derive(family, mtu.getAsInt(), timestamps.get()));
        } catch (IllegalArgumentException e) {
            LOG.debug("no TCP MSS over {}: {}", local, e.getMessage());
            return Optional.empty(); // an MTU too small for TCP: no MSS to report
        }
    }
}
