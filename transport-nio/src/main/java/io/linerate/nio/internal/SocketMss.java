package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import io.linerate.core.spi.tcp.TcpConnectionInfo;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.nio.PathFacts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MSS of an NIO TCP connection as the kernel gives it: {@code tcpi_snd_mss} of each end's
 * {@code tcp_info}, looked up by the connection's addresses through a {@link TcpInfoSources TCP_INFO
 * source} (the native layer's sock_diag), as the JDK offers no {@code TCP_MAXSEG}. Where no source can
 * read it (not Linux, no native layer), the MSS is derived from the interface's MTU
 * ({@link PathFacts#tcpMss}) and says why it was not read.
 */
final class SocketMss {
    /** How a read MSS was read. */
    static final String HOW = "tcpi_snd_mss";
    private static final Logger LOG = LoggerFactory.getLogger(SocketMss.class);

    private SocketMss() {}

    /**
     * @param family the connection's family
     * @param sender the sending end's channel, connected
     * @param receiver the receiving end's channel, connected, in this JVM
     * @return the MSS read at both ends; else derived from the sender's interface, saying why; empty
     *     when neither can be had
     */
    static Optional<TcpMss> ofPair(AddressFamily family, SocketChannel sender, SocketChannel receiver) {
        Read tx = read(sender);
        Read rx = tx.mss < 0 ? tx : read(receiver);
        if (tx.mss > 0 && rx.mss > 0) {
            return Optional.of(TcpMss.read(family, tx.mss, rx.mss, HOW));
        }
        return derived(family, sender, tx.mss < 0 ? tx.why : rx.why);
    }

    /**
     * @param family the connection's family
     * @param end this host's end of a connection whose other end is elsewhere, connected
     * @return this end's MSS read, as both ends' (the other end's is its own to read); else derived
     *     from this end's interface, saying why; empty when neither can be had
     */
    static Optional<TcpMss> ofEnd(AddressFamily family, SocketChannel end) {
        Read r = read(end);
        return r.mss > 0 ? Optional.of(TcpMss.read(family, r.mss, r.mss, HOW + " of this host's end"))
                : derived(family, end, r.why);
    }

    private static Optional<TcpMss> derived(AddressFamily family, SocketChannel end, String why) {
        try {
            InetSocketAddress local = (InetSocketAddress) end.getLocalAddress();
            return PathFacts.tcpMss(family, local.getAddress()).map(m -> m.withUnreadBecause(why));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private record Read(int mss, String why) {}

    private static Read read(SocketChannel c) {
        try {
            InetSocketAddress local = (InetSocketAddress) c.getLocalAddress();
            InetSocketAddress remote = (InetSocketAddress) c.getRemoteAddress();
            if (local == null || remote == null) {
                return new Read(-1, "the socket is not connected");
            }
            TcpInfoSources.Found found = TcpInfoSources.connection(local, remote);
            if (found.info() == null) {
                return new Read(-1, found.unavailable());
            }
            TcpConnectionInfo info = found.info();
            if (!info.read()) {
                return new Read(-1, "the kernel has no connection " + info.describe());
            }
            long mss = info.sndMss();
            return mss > 0 && mss <= Integer.MAX_VALUE ? new Read((int) mss, null)
                    : new Read(-1, "tcp_info of " + info.describe() + " holds no tcpi_snd_mss");
        } catch (IOException | IllegalArgumentException e) {
            LOG.debug("cannot read the MSS of {}: {}", c, e.toString());
            return new Read(-1, e.getMessage());
        }
    }
}
