package io.linerate.nio.internal;

import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.ReceiverContext;
import io.linerate.core.spi.engine.SenderContext;
import io.linerate.core.spi.engine.TcpProbe;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.IntConsumer;

/**
 * A connected pair of TCP sockets on loopback. Options that must precede connect (SO_SNDBUF,
 * SO_RCVBUF for window scaling, IP_TOS/IPV6_TCLASS, TCP_NODELAY) are set before it, and read back
 * after it (DESIGN rule 9). Both ends are non-blocking; waits go through a selector with a bound.
 * Where a {@link io.linerate.core.spi.tcp.TcpInfoSource} is on the class path, the result carries
 * the sender's {@code TCP_INFO} ({@link SenderTcpInfo}).
 */
public final class TcpEndpoints extends ChannelEndpoints<SocketChannel> {
    /** Size of the receiver's read buffer, bytes. */
    static final int RECEIVE_BUFFER_BYTES = 256 * 1024;
    /** What {@link #sendLoop} tells of the phases where nothing reads {@code TCP_INFO}. */
    private static final IntConsumer NO_PHASES = phase -> { };

    private final SenderTcpInfo tcpInfo;

    private TcpEndpoints(TransferSpec spec, SocketChannel sender, SocketChannel receiver,
                         Selector senderSelector, Selector receiverSelector) throws IOException {
        super(spec, sender, receiver, senderSelector, receiverSelector,
                sender.getOption(StandardSocketOptions.TCP_NODELAY),
                // the JDK has no TCP_MAXSEG: tcpi_snd_mss of both ends, else derived from the sender's interface
                SocketMss.ofPair(spec.family(), sender, receiver));
        this.tcpInfo = SenderTcpInfo.open(sender, receiver);
    }

    static TcpEndpoints open(TransferSpec spec) throws TransferException {
        List<AutoCloseable> opened = new ArrayList<>();
        List<AutoCloseable> setupOnly = new ArrayList<>();
        try {
            ProtocolFamily pf = Waits.protocolFamily(spec.family());
            InetSocketAddress bindAddress = new InetSocketAddress(spec.family().loopbackAddress(), spec.port());
            ServerSocketChannel server = ServerSocketChannel.open(pf);
            setupOnly.add(server);
            if (spec.receiveBufferBytes() > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBufferBytes());
            }
            try {
                server.bind(bindAddress, 1);
            } catch (IOException e) {
                throw Waits.bindFailure(bindAddress, "TCP", e);
            }
            server.configureBlocking(false);

            SocketChannel tx = SocketChannel.open(pf);
            opened.add(tx);
            tx.setOption(StandardSocketOptions.TCP_NODELAY, spec.noDelay());
            tx.setOption(StandardSocketOptions.IP_TOS, spec.trafficClass());
            if (spec.sendBufferBytes() > 0) {
                tx.setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
            }
            tx.configureBlocking(false);
            Selector setup = Selector.open();
            setupOnly.add(setup);
            server.register(setup, SelectionKey.OP_ACCEPT);
            boolean connected = tx.connect(server.getLocalAddress());
            if (!connected) {
                tx.register(setup, SelectionKey.OP_CONNECT);
            }
            SocketChannel rx = null;
            long deadline = System.nanoTime() + spec.ioTimeout().toNanos();
            while (true) {
                if (!connected) {
                    connected = tx.finishConnect();
                }
                if (rx == null) {
                    rx = server.accept();
                    if (rx != null) {
                        opened.add(rx);
                    }
                }
                if (connected && rx != null) {
                    break;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TransferException(String.format(Locale.ROOT,
                            "TCP connect to %s did not complete within the I/O timeout of %d ms",
                            server.getLocalAddress(), spec.ioTimeout().toMillis()), null);
                }
                Waits.select(setup, Math.min(left / 1_000_000L, Waits.POLL_MILLIS));
            }
            NioStreamTransfer.closeAll(setupOnly);
            setupOnly.clear();
            rx.configureBlocking(false);
            Selector txSelector = Selector.open();
            opened.add(txSelector);
            Selector rxSelector = Selector.open();
            opened.add(rxSelector);
            tx.register(txSelector, SelectionKey.OP_WRITE);
            rx.register(rxSelector, SelectionKey.OP_READ);
            return new TcpEndpoints(spec, tx, rx, txSelector, rxSelector);
        } catch (IOException e) {
            closeQuietly(setupOnly);
            closeQuietly(opened);
            throw new TransferException("cannot set up the TCP transfer on " + spec.family().loopbackAddress()
                    .getHostAddress() + ": " + e.getMessage(), e);
        } catch (TransferException | RuntimeException e) {
            closeQuietly(setupOnly);
            closeQuietly(opened);
            throw e;
        }
    }


    @Override
    void send(SenderContext ctx) throws IOException {
        sendLoop(sender, senderSelector, ctx, spec.payloadBytes(), tcpInfo);
    }

    /** @return a per-interval reading of the sender's {@code tcp_info}, where a source can read it */
    @Override
    public Optional<TcpProbe> tcpProbe() {
        return SenderTcpProbe.of(sender);
    }

    /** @return the result with the sender's {@code TCP_INFO} figures where a source read them */
    @Override
    public TransferResult finish(TransferResult r) {
        // the MSS read again once the run has ended: the one the connection settled on (at set-up the
        // kernel bounds it by half the largest window seen, which on loopback is still the first one)
        Optional<TcpMss> settled = SocketMss.ofPair(spec.family(), sender, receiver).filter(m -> m.read().isPresent());
        return tcpInfo.stats().map(t -> r.withTcp(t, r.options().withTcpMss(settled.or(() -> r.options().tcpMss()))))
                .orElseGet(() -> tcpInfo.unavailable() == null ? r : r.withTcpUnavailable(tcpInfo.unavailable()));
    }

    /**
     * Writes payload-sized messages on a connected non-blocking channel until the context's bound,
     * then shuts the output down so the receiver sees the end.
     *
     * @param sender connected, non-blocking
     * @param senderSelector a selector {@code sender} is registered with for OP_WRITE
     * @throws IOException when a write fails or makes no progress for the I/O timeout
     */
    public static void sendLoop(SocketChannel sender, Selector senderSelector, SenderContext ctx, int payloadBytes)
            throws IOException {
        sendLoop(sender, senderSelector, ctx, payloadBytes, NO_PHASES);
    }

    /**
     * {@link #sendLoop(SocketChannel, Selector, SenderContext, int)}, telling {@code phases} the
     * context's phase before each message ({@link SenderTcpInfo#accept}).
     */
    static void sendLoop(SocketChannel sender, Selector senderSelector, SenderContext ctx, int payloadBytes,
                         IntConsumer phases) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(payloadBytes);
        Stall stall = new Stall("TCP sender", ctx.ioTimeoutNanos());
        try {
            int n;
            while ((n = ctx.nextMessageBytes()) > 0 && ctx.pace()) {
                phases.accept(ctx.phase());
                buf.clear().limit(n);
                stall.progressed();
                while (buf.hasRemaining()) {
                    int w = sender.write(buf);
                    if (w > 0) {
                        ctx.sent(w, !buf.hasRemaining());
                        stall.progressed();
                        continue;
                    }
                    if (ctx.stopRequested()) {
                        return;
                    }
                    stall.stalled(ctx.bytesSent());
                    Waits.select(senderSelector, Waits.POLL_MILLIS);
                }
            }
        } finally {
            try {
                sender.shutdownOutput();
            } catch (IOException ignored) {
                // the peer is gone; the send error, if any, is already on its way
            }
        }
    }

    /** Counts bytes until the end of the stream or a stop request. */
    @Override
    void receive(ReceiverContext ctx) throws IOException {
        receiveLoop(receiver, receiverSelector, ctx);
    }

    /**
     * Counts bytes on a connected non-blocking channel until the end of the stream or a stop request.
     *
     * @param receiverSelector a selector {@code receiver} is registered with for OP_READ
     */
    public static void receiveLoop(SocketChannel receiver, Selector receiverSelector, ReceiverContext ctx) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(RECEIVE_BUFFER_BYTES);
        while (!ctx.stopRequested()) {
            buf.clear();
            int r = receiver.read(buf);
            if (r > 0) {
                ctx.received(r);
            } else if (r < 0) {
                ctx.endOfStream();
                return;
            } else {
                Waits.select(receiverSelector, Waits.POLL_MILLIS);
            }
        }
    }
}
