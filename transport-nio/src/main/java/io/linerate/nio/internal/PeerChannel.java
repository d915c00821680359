package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Protocol;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.ends.StreamListener;
import io.linerate.core.spi.engine.StreamEngine;
import io.linerate.core.spi.engine.TcpProbe;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * One end's data socket of a stream whose other end runs on a peer: a connected TCP socket or a
 * UDP socket connected to the peer's, non-blocking, with a selector. Options that must precede
 * connect (SO_SNDBUF, SO_RCVBUF, IP_TOS/IPV6_TCLASS, TCP_NODELAY) are set before it and read back
 * after it (DESIGN rule 9); an accepted TCP socket inherits SO_RCVBUF from its listener.
 */
public final class PeerChannel implements StreamChannel {
    private final TransferSpec spec;
    private final NetworkChannel channel;
    private final Selector selector;
    private final boolean sending;
    /** A sending TCP end's TCP_INFO through a source found at run time; null elsewhere. */
    private volatile Optional<TcpStats> tcpStats = Optional.empty();
    private volatile Optional<TcpMss> mssAtEnd = Optional.empty();

    private PeerChannel(TransferSpec spec, NetworkChannel channel, Selector selector, boolean sending) {
        this.spec = spec;
        this.channel = channel;
        this.selector = selector;
        this.sending = sending;
    }

    /** A TCP listener on an ephemeral port, waiting for the peer's one data connection. */
    public static final class Listener implements StreamListener {
        private final TransferSpec spec;
        private final ServerSocketChannel server;
        private final boolean sending;

        private Listener(TransferSpec spec, ServerSocketChannel server, boolean sending) {
            this.spec = spec;
            this.server = server;
            this.sending = sending;
        }

        /** @return the ephemeral port the listener is bound to */
            @Override
        public int port() throws IOException {
            return ((InetSocketAddress) server.getLocalAddress()).getPort();
        }

        /**
         * Accepts the data connection, bounded by the spec's I/O timeout, and closes the listener.
         *
         * @param from the peer's address: a connection from another host is refused and closed
         * @throws IOException when no connection from {@code from} came within the I/O timeout
         */
            @Override
        public PeerChannel accept(InetAddress from) throws IOException {
            long deadline = System.nanoTime() + spec.ioTimeout().toNanos();
            try (Selector s = Selector.open()) {
                server.register(s, SelectionKey.OP_ACCEPT);
                while (true) {
                    SocketChannel ch = server.accept();
                    if (ch != null) {
                        if (!((InetSocketAddress) ch.getRemoteAddress()).getAddress().equals(from)) {
                            ch.close();
                            continue;
                        }
                        List<AutoCloseable> opened = new ArrayList<>(List.of(ch));
                        try {
                            if (sending) {
                                senderOptions(spec, ch);
                            }
                            return PeerChannel.of(spec, ch, sending, opened);
                        } catch (IOException | RuntimeException e) {
                            ChannelEndpoints.closeQuietly(opened);
                            throw e;
                        }
                    }
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        throw new IOException(String.format(Locale.ROOT,
                                "no TCP data connection from %s within the I/O timeout of %d ms",
                                from.getHostAddress(), spec.ioTimeout().toMillis()));
                    }
                    Waits.select(s, Math.min(left / 1_000_000L, Waits.POLL_MILLIS));
                }
            } finally {
                close();
            }
        }

        @Override
        public void close() throws IOException {
            server.close();
        }
    }

    /**
     * @param local the address to listen on (the control connection's local address)
     * @param sending whether this end sends
     * @return a TCP listener on an ephemeral port of {@code local}
     */
    public static Listener listenTcp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open(family(local));
        try {
            if (!sending && spec.receiveBufferBytes() > 0) {
                server.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBufferBytes());
            }
            server.bind(new InetSocketAddress(local, 0), 1);
            server.configureBlocking(false);
            return new Listener(spec, server, sending);
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /**
     * Connects a TCP data socket to the peer's listener, bounded by the spec's I/O timeout.
     *
     * @param sending whether this end sends
     */
    public static PeerChannel connectTcp(TransferSpec spec, InetSocketAddress peer, boolean sending)
            throws IOException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            SocketChannel ch = SocketChannel.open(family(peer.getAddress()));
            opened.add(ch);
            if (sending) {
                senderOptions(spec, ch);
            } else if (spec.receiveBufferBytes() > 0) {
                ch.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBufferBytes());
            }
            ch.configureBlocking(false);
            long deadline = System.nanoTime() + spec.ioTimeout().toNanos();
            if (!ch.connect(peer)) {
                try (Selector s = Selector.open()) {
                    ch.register(s, SelectionKey.OP_CONNECT);
                    while (!ch.finishConnect()) {
                        long left = deadline - System.nanoTime();
                        if (left <= 0) {
                            throw new IOException(String.format(Locale.ROOT,
                                    "TCP connect to %s did not complete within the I/O timeout of %d ms",
                                    peer, spec.ioTimeout().toMillis()));
                        }
                        Waits.select(s, Math.min(left / 1_000_000L, Waits.POLL_MILLIS));
                    }
                }
            }
            return of(spec, ch, sending, opened);
        } catch (IOException | RuntimeException e) {
            ChannelEndpoints.closeQuietly(opened);
            throw e;
        }
    }

    /**
     * Binds a UDP data socket to an ephemeral port of {@code local}; {@link #connectUdp} joins it to
     * the peer's.
     */
    public static PeerChannel bindUdp(TransferSpec spec, InetAddress local, boolean sending) throws IOException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            DatagramChannel ch = DatagramChannel.open(family(local));
            opened.add(ch);
            if (sending) {
                ch.setOption(StandardSocketOptions.IP_TOS, spec.trafficClass());
                if (spec.sendBufferBytes() > 0) {
                    ch.setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
                }
            } else if (spec.receiveBufferBytes() > 0) {
                ch.setOption(StandardSocketOptions.SO_RCVBUF, spec.receiveBufferBytes());
            }
            ch.bind(new InetSocketAddress(local, 0));
            return of(spec, ch, sending, opened);
        } catch (IOException | RuntimeException e) {
            ChannelEndpoints.closeQuietly(opened);
            throw e;
        }
    }

    /** Connects this UDP socket to the peer's, so that it only sees the peer's datagrams. */
    @Override
    public void connectUdp(InetSocketAddress peer) throws IOException {
        if (!(channel instanceof DatagramChannel udp)) {
            throw new UnsupportedOperationException("a TCP data socket is connected when it is opened");
        }
        udp.connect(peer);
    }

    /** @return the local port of this socket */
    @Override
    public int localPort() throws IOException {
        return ((InetSocketAddress) channel.getLocalAddress()).getPort();
    }

    /** @return a receiving UDP socket's drops since it was created; -1 elsewhere and when unknown */
    @Override
    public long socketDrops() {
        return !sending && channel instanceof DatagramChannel udp && udp.isOpen() ? UdpEndpoints.socketDrops(udp) : -1;
    }

    private static PeerChannel of(TransferSpec spec, NetworkChannel ch, boolean sending, List<AutoCloseable> opened)
            throws IOException {
        ((java.nio.channels.SelectableChannel) ch).configureBlocking(false);
        Selector selector = Selector.open();
        opened.add(selector);
        ((java.nio.channels.SelectableChannel) ch).register(selector,
                sending ? SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        return new PeerChannel(spec, ch, selector, sending);
    }

    private static void senderOptions(TransferSpec spec, SocketChannel ch) throws IOException {
        ch.setOption(StandardSocketOptions.TCP_NODELAY, spec.noDelay());
        ch.setOption(StandardSocketOptions.IP_TOS, spec.trafficClass());
        if (spec.sendBufferBytes() > 0) {
            ch.setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
        }
    }

    private static ProtocolFamily family(InetAddress a) {
        return a instanceof java.net.Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
    }

    /** @return this end's send loop: the stream engine's TCP or UDP sender on this socket */
    @Override
    public StreamEngine.SendLoop sendLoop() {
        if (channel instanceof SocketChannel tcp) {
            SenderTcpInfo info = SenderTcpInfo.open(tcp);
            return ctx -> {
                try {
                    TcpEndpoints.sendLoop(tcp, selector, ctx, spec.payloadBytes(), info);
                } finally {
                    // read while the connection is still open: once closed the kernel's account of it is gone
                    tcpStats = info.stats();
                    readMssAtEnd(tcp);
                }
            };
        }
        DatagramChannel udp = (DatagramChannel) channel;
        return ctx -> UdpEndpoints.sendLoop(udp, selector, ctx, spec.payloadBytes(), spec.streamId());
    }

    /** @return this end's receive loop on this socket */
    @Override
    public StreamEngine.ReceiveLoop receiveLoop() {
        if (channel instanceof SocketChannel tcp) {
            return ctx -> {
                try {
                    TcpEndpoints.receiveLoop(tcp, selector, ctx);
                } finally {
                    readMssAtEnd(tcp);
                }
            };
        }
        DatagramChannel udp = (DatagramChannel) channel;
        return ctx -> UdpEndpoints.receiveLoop(udp, selector, ctx);
    }

    /**
     * @return this socket's options as the kernel applied them: the sending side's traffic class,
     *     SO_SNDBUF and TCP_NODELAY, the receiving side's SO_RCVBUF (the other figures read 0 or
     *     false), and for TCP this end's MSS as the kernel gives it ({@link SocketMss}), or where it
     *     cannot be read, derived from this end's interface's MTU (a receiver's: what it advertised,
     *     which bounds its sender's on the same path)
     */
    @Override
    public AppliedOptions options() throws IOException {
        boolean tcp = spec.protocol() == Protocol.TCP;
        Optional<TcpMss> mss = tcp ? mss() : Optional.empty();
        if (sending) {
            return new AppliedOptions(spec.trafficClass(), channel.getOption(StandardSocketOptions.IP_TOS),
                    spec.sendBufferBytes(), SocketBuffers.send(channel), spec.receiveBufferBytes(), 0,
                    spec.noDelay(), tcp && channel.getOption(StandardSocketOptions.TCP_NODELAY), mss);
        }
        return new AppliedOptions(spec.trafficClass(), 0, spec.sendBufferBytes(), 0,
                spec.receiveBufferBytes(), SocketBuffers.receive(channel), spec.noDelay(), false, mss);
    }

    /** @return the MSS read as the loop ended, while the connection still stood; else read (or derived) now */
    private Optional<TcpMss> mss() {
        Optional<TcpMss> atEnd = mssAtEnd;
        return atEnd.isPresent() ? atEnd : SocketMss.ofEnd(spec.family(), (SocketChannel) channel);
    }

    /** Reads this end's MSS as its loop ends: once the peer has closed too, the kernel may have no account of it left. */
    private void readMssAtEnd(SocketChannel tcp) {
        Optional<TcpMss> read = SocketMss.ofEnd(spec.family(), tcp);
        if (read.flatMap(TcpMss::read).isPresent()) {
            mssAtEnd = read;
        }
    }

    /**
     * @return a sending TCP end's {@code tcp_info} figures as its loop ended, read through a
     *     {@link io.linerate.core.spi.tcp.TcpInfoSources TCP_INFO source} (the native layer's
     *     sock_diag; the receiver's MSS, the peer's, reads -1); empty at a receiving end, before the
     *     run, or where no source reads them
     */
    /** @return a sending TCP end's per-interval reading of its {@code tcp_info} through sock_diag, where a source can read it */
    @Override
    public Optional<TcpProbe> tcpProbe() {
        return sending && channel instanceof SocketChannel tcp ? SenderTcpProbe.of(tcp) : Optional.empty();
    }

    @Override
    public Optional<TcpStats> tcpStats() {
        return tcpStats;
    }

    @Override
    public void close() throws IOException {
        NioStreamTransfer.closeAll(List.of(selector, channel));
    }
}
