package io.linerate.nio.internal;

import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.ends.EchoEnd;
import io.linerate.core.spi.latency.EchoServer;
import io.linerate.core.spi.tcp.TcpInfoWindow;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.NetworkChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The echo end of a ping-pong with a client on a peer, on NIO: a TCP listener that accepts the
 * client's one connection, or a UDP socket connected to the client's, answered by an
 * {@link EchoServer} on the spec's server muxer.
 */
final class NioEchoEnd implements EchoEnd {
    /** The figures' {@link LatencyTcpInfo.End#source()}, for this host's logs; the client names its own. */
    static final String SOURCE = "TCP_INFO of the echo end's socket; window: the echo's life";
    private final PingPongSpec spec;
    private final boolean tcp;
    private final List<AutoCloseable> opened = new ArrayList<>();
    private ServerSocketChannel listener;
    private NetworkChannel connected;
    private EchoServer echo;
    private Optional<String> cpus = Optional.empty();
    private TcpInfoWindow tcpWindow;
    private Optional<LatencyTcpInfo.End> tcpRead = Optional.empty();
    /** Longest wait for the echo thread to be pinned to its CPU beyond the spec's timeout, ns. */
    private static final long PIN_WAIT_NANOS = 10_000_000_000L;

    private NioEchoEnd(PingPongSpec spec) {
        this.spec = spec;
        this.tcp = spec.protocol() == PingPongProtocol.TCP;
    }

    static NioEchoEnd open(PingPongSpec spec, InetAddress local) throws IOException {
        if (spec.protocol() != PingPongProtocol.TCP && spec.protocol() != PingPongProtocol.UDP) {
            throw new IllegalArgumentException("a ping-pong echo end with a peer runs tcp or udp, not "
                    + spec.protocol().label());
        }
        NioEchoEnd e = new NioEchoEnd(spec);
        try {
            if (e.tcp) {
                e.listener = ServerSocketChannel.open(Sockets.protocolFamily(spec.family()));
                e.opened.add(e.listener);
                Sockets.apply(e.listener, 0, spec.receiveBufferBytes(), false, 0, false, false);
                e.listener.bind(new InetSocketAddress(local, 0), 1);
            } else {
                DatagramChannel d = DatagramChannel.open(Sockets.protocolFamily(spec.family()));
                e.opened.add(d);
                Sockets.apply(d, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), false,
                        false);
                d.bind(new InetSocketAddress(local, 0));
                e.connected = d;
            }
            return e;
        } catch (IOException | RuntimeException failed) {
            e.close();
            throw failed;
        }
    }

    @Override
    public int localPort() throws IOException {
        NetworkChannel ch = tcp ? listener : connected;
        return ((InetSocketAddress) ch.getLocalAddress()).getPort();
    }

    @Override
    public void accept(InetAddress from, long timeoutMillis) throws IOException {
        if (!tcp || listener == null || !listener.isOpen()) {
            throw new IllegalStateException("accept applies once, to a TCP echo end");
        }
        listener.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis)));
        SocketChannel s;
        try {
            s = listener.socket().accept().getChannel();
        } catch (SocketTimeoutException e) {
            throw new IOException("the client did not connect its ping-pong socket within " + timeoutMillis + " ms");
        }
        opened.add(s);
        listener.close();
        InetAddress came = ((InetSocketAddress) s.getRemoteAddress()).getAddress();
        if (!came.equals(from)) {
            throw new IOException("the ping-pong connection came from " + came.getHostAddress()
                    + ", not from the client at " + from.getHostAddress());
        }
        Sockets.apply(s, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), true,
                spec.noDelay());
        connected = s;
    }

    @Override
    public void connectUdp(InetSocketAddress client) throws IOException {
        if (tcp) {
            throw new IllegalStateException("a TCP echo end accepts its client; connectUdp applies to UDP");
        }
        ((DatagramChannel) connected).connect(client);
    }

    @Override
    public void start(int maxSize) throws IOException {
        if (echo != null) {
            throw new IllegalStateException("the echo end is started once");
        }
        if (connected == null || (!tcp && !((DatagramChannel) connected).isConnected())) {
            throw new IllegalStateException("the echo end starts once its client is "
                    + (tcp ? "accepted" : "connected"));
        }
        Endpoint end;
        if (connected instanceof SocketChannel s) {
            end = Endpoint.open("linerate-agent-echo", s, s, false, spec.serverMuxer(),
                    spec.idleOf(spec.serverMuxer()), spec.timeout().toNanos());
        } else {
            DatagramChannel d = (DatagramChannel) connected;
            end = Endpoint.open("linerate-agent-echo", d, d, true, spec.serverMuxer(),
                    spec.idleOf(spec.serverMuxer()), spec.timeout().toNanos());
        }
        opened.add(0, end);
        tcpWindow = end.tcpInfo().map(f -> TcpInfoWindow.of(SOURCE, f)).orElse(null);
        if (tcpWindow != null) {
            tcpWindow.open();
        }
        echo = new EchoServer(end, maxSize, spec.timeout().toNanos(), -1, spec.affinity().serverCpu());
        opened.add(0, echo);
        try {
            cpus = echo.startPinned(spec.timeout().toNanos() + PIN_WAIT_NANOS);
        } catch (TransferException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    @Override
    public Optional<String> cpus() {
        return cpus;
    }

    @Override
    public long answered() {
        return echo == null ? 0 : echo.answered();
    }

    @Override
    public long answeredBytes() {
        return echo == null ? 0 : echo.answeredBytes();
    }

    @Override
    public Throwable failure() {
        return echo == null ? null : echo.failure();
    }

    /** @return the TCP socket's figures, read by sock_diag as {@link #close} released it; see {@link EchoEnd#tcpInfo()} */
    @Override
    public Optional<LatencyTcpInfo.End> tcpInfo() {
        return tcpRead;
    }

    /** Reads a TCP socket's {@code TCP_INFO} while it is open, then stops the echo thread (bounded by the spec's timeout), then closes the sockets. */
    @Override
    public void close() {
        if (tcpWindow != null && tcpRead.isEmpty()) {
            tcpRead = Optional.of(tcpWindow.end());
        }
        Resources.closeQuietly(List.copyOf(opened));
        opened.clear();
    }
}
