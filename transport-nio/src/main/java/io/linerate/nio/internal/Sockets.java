package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.net.ProtocolFamily;
import java.net.SocketAddress;
import java.net.SocketOption;
import java.net.StandardSocketOptions;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Socket options and bounded connection set-up shared by ping-pong and request/response. */
public final class Sockets {
    private static final Logger LOG = LoggerFactory.getLogger(Sockets.class);

    private Sockets() {}

    /** @return INET or INET6 */
    public static ProtocolFamily protocolFamily(AddressFamily f) {
        return Waits.protocolFamily(f);
    }

    /**
     * Sets the options that must precede connect (DESIGN rule 9): SO_SNDBUF, SO_RCVBUF when
     * non-zero, IP_TOS (IPV6_TCLASS for IPv6) when {@code ip}, TCP_NODELAY when {@code tcp}.
     */
    public static void apply(NetworkChannel ch, int sendBuffer, int receiveBuffer, boolean ip, int trafficClass,
                             boolean tcp, boolean noDelay) throws IOException {
        if (sendBuffer > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, sendBuffer);
        }
        if (receiveBuffer > 0) {
            ch.setOption(StandardSocketOptions.SO_RCVBUF, receiveBuffer);
        }
        if (ip) {
            ch.setOption(StandardSocketOptions.IP_TOS, trafficClass);
        }
        if (tcp) {
            ch.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
        }
        LOG.debug("set options of {}: SO_SNDBUF {}, SO_RCVBUF {}, traffic class {}, TCP_NODELAY {} (0 or - is the "
                + "kernel's default)", ch, sendBuffer, receiveBuffer, ip ? "0x" + Integer.toHexString(trafficClass) : "-",
                tcp ? noDelay : "-");
    }

    /**
     * A buffer size as the kernel holds it: Linux stores twice the requested size (capped by
     * {@code net.core.wmem_max}/{@code rmem_max}, socket(7)) and the JDK halves what getsockopt
     * returns on Linux, so the kernel's figure is twice the JDK's.
     *
     * @return bytes
     */
    public static int appliedBuffer(NetworkChannel ch, SocketOption<Integer> option) throws IOException {
        return SocketBuffers.applied(ch, option);
    }

    /**
     * Connects {@code client} (non-blocking) to {@code server} and accepts the peer, both bounded by
     * {@code timeoutNanos}.
     *
     * @return the accepted channel, in blocking mode; the caller closes it
     * @throws TransferException when the connection does not complete in time
     */
    public static SocketChannel connectPair(ServerSocketChannel server, SocketChannel client, long timeoutNanos)
            throws IOException, TransferException {
        SocketAddress to = server.getLocalAddress();
        server.configureBlocking(false);
        client.configureBlocking(false);
        SocketChannel accepted = null;
        try (Selector sel = Selector.open()) {
            server.register(sel, SelectionKey.OP_ACCEPT);
            boolean connected = client.connect(to);
            if (!connected) {
                client.register(sel, SelectionKey.OP_CONNECT);
            }
            long deadline = System.nanoTime() + timeoutNanos;
            while (true) {
                if (!connected) {
                    connected = client.finishConnect();
                }
                if (accepted == null) {
                    accepted = server.accept();
                }
                if (connected && accepted != null) {
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TransferException(String.format(Locale.ROOT,
                            "connect to %s did not complete within the timeout of %d ms", to, timeoutNanos / 1_000_000L), null);
                }
                sel.select(Waits.IGNORE, Math.max(1, Math.min(10, left / 1_000_000L)));
            }
            accepted.configureBlocking(true);
            sel.keys().forEach(SelectionKey::cancel);
            sel.selectNow();
            client.configureBlocking(true);
            return accepted;
        } catch (IOException | TransferException | RuntimeException e) {
            if (accepted != null) {
                accepted.close();
            }
            throw e;
        }
    }
}
