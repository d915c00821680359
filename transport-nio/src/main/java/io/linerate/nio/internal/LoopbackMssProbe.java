package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.TcpMss;
import io.linerate.nio.PathFacts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MSS a TCP connection over this namespace's loopback uses, read from a probe connection's
 * sending end ({@code tcpi_snd_mss}, through {@link SocketMss}).
 *
 * <p>A fresh connection's MSS is bounded by half the largest window its peer announced (Linux
 * {@code tcp_bound_to_half_wnd}): on a loopback of MTU 65536 it reads 32741 until the receiver's
 * window grows. So the probe first moves {@link #PUSH_BYTES} through the connection, as a stream
 * would, and reads after that: the full segment (65483 there). Where it cannot be read (no
 * TCP_INFO source, or the probe failed), the MSS is derived from the MTU and says why.
 */
public final class LoopbackMssProbe {
    /** Bytes moved through the probe connection before its MSS is read. */
    public static final int PUSH_BYTES = 1 << 20;
    private static final Logger LOG = LoggerFactory.getLogger(LoopbackMssProbe.class);

    private LoopbackMssProbe() {}

    /**
     * @param family the loopback's address family
     * @param bound the longest the probe may take, connection and push included
     * @return the MSS read at the probe's two ends; else derived from the loopback's MTU, saying why it
     *     was not read; empty when neither can be had
     */
    public static Optional<TcpMss> read(AddressFamily family, Duration bound) {
        long deadline = System.nanoTime() + bound.toNanos();
        try (ServerSocketChannel listener = ServerSocketChannel.open();
             SocketChannel client = SocketChannel.open();
             Selector selector = Selector.open()) {
            listener.bind(new InetSocketAddress(family.loopbackAddress(), 0), 1);
            client.configureBlocking(false);
            client.connect(listener.getLocalAddress());
            try (SocketChannel server = accept(listener, selector, deadline)) {
                finishConnect(client, selector, deadline);
                push(client, server, selector, deadline);
                return SocketMss.ofPair(family, client, server);
            }
        } catch (IOException e) {
            LOG.debug("the loopback MSS probe over IPv{} failed: {}", family.label(), e.toString());
            return PathFacts.loopbackTcpMss(family)
                    .map(m -> m.withUnreadBecause("the probe connection failed: " + e.getMessage()));
        }
    }

    private static SocketChannel accept(ServerSocketChannel listener, Selector selector, long deadline) throws IOException {
        listener.configureBlocking(false);
        SelectionKey key = listener.register(selector, SelectionKey.OP_ACCEPT);
        try {
            while (true) {
                SocketChannel s = listener.accept();
                if (s != null) {
                    s.configureBlocking(false);
                    return s;
                }
                await(selector, deadline, "an accepted connection");
            }
        } finally {
            key.cancel();
            selector.selectNow();
        }
    }

    private static void finishConnect(SocketChannel client, Selector selector, long deadline) throws IOException {
        SelectionKey key = client.register(selector, SelectionKey.OP_CONNECT);
        try {
            while (!client.finishConnect()) {
                await(selector, deadline, "the connection");
            }
        } finally {
            key.cancel();
            selector.selectNow();
        }
    }

    /** Moves {@link #PUSH_BYTES} from the client to the server, interleaving writes and reads in this thread. */
    private static void push(SocketChannel client, SocketChannel server, Selector selector, long deadline) throws IOException {
        ByteBuffer out = ByteBuffer.allocate(64 * 1024);
        ByteBuffer in = ByteBuffer.allocate(64 * 1024);
        long written = 0;
        long received = 0;
        SelectionKey w = client.register(selector, SelectionKey.OP_WRITE);
        SelectionKey r = server.register(selector, SelectionKey.OP_READ);
        while (received < PUSH_BYTES) {
            int moved = 0;
            if (written < PUSH_BYTES) {
                out.clear().limit((int) Math.min(out.capacity(), PUSH_BYTES - written));
                int n = client.write(out);
                written += n;
                moved += n;
            }
            in.clear();
            int n = server.read(in);
            if (n < 0) {
                throw new IOException("the probe connection closed after " + received + " of " + PUSH_BYTES + " bytes");
            }
            received += n;
            moved += n;
            if (moved == 0) {
                w.interestOps(written < PUSH_BYTES ? SelectionKey.OP_WRITE : 0);
                await(selector, deadline, PUSH_BYTES + " bytes (" + received + " arrived)");
            }
        }
        r.cancel();
        w.cancel();
    }

    private static void await(Selector selector, long deadline, String what) throws IOException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new IOException("timed out waiting for " + what);
        }
        selector.select(Math.max(1, left / 1_000_000));
        selector.selectedKeys().clear();
    }
}
