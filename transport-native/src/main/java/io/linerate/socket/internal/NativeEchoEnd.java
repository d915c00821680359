package io.linerate.socket.internal;

import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.ends.EchoEnd;
import io.linerate.core.spi.latency.EchoServer;
import io.linerate.core.spi.tcp.TcpInfoWindow;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The echo end of a ping-pong with a client on a peer, on native sockets: a TCP listener (backlog 1)
 * that accepts the client's one connection, or a UDP socket connected to the client's, answered by
 * core's {@link EchoServer} on a {@link NativeMessageEnd} (every receive waits inside one
 * recv(2) of at most 10 ms; nothing allocated per message). With {@link PingPongSpec#bindToDevice()} the socket is bound to the
 * interface ({@code SO_BINDTODEVICE}) before it binds, and the binding is read back; the echo
 * thread runs on the spec's server CPU ({@link io.linerate.core.Affinity#serverCpu()}) when it has one.
 */
final class NativeEchoEnd implements EchoEnd {
    /** The figures' {@link LatencyTcpInfo.End#source()}, for this host; the client names its own. */
    static final String SOURCE = "TCP_INFO of the echo end's socket; window: the echo's life";
    /** Longest wait for the echo thread to be pinned to its CPU beyond the spec's timeout, ns. */
    private static final long PIN_WAIT_NANOS = 10_000_000_000L;

    private final PingPongSpec spec;
    private final boolean tcp;
    private NativeSocket listener;
    private NativeSocket connected;
    private boolean udpConnected;
    private EchoServer echo;
    private Optional<String> cpus = Optional.empty();
    private TcpInfoWindow tcpWindow;
    private Optional<LatencyTcpInfo.End> tcpRead = Optional.empty();

    private NativeEchoEnd(PingPongSpec spec) {
        this.spec = spec;
        this.tcp = spec.protocol() == PingPongProtocol.TCP;
    }

    /**
     * @return why the spec cannot have its echo end on native sockets (its protocol, its server
     *     muxer), or empty
     */
    static Optional<String> refusal(PingPongSpec spec) {
        if (spec.protocol() != PingPongProtocol.TCP && spec.protocol() != PingPongProtocol.UDP) {
            return Optional.of("a ping-pong echo end with a peer runs tcp or udp, not " + spec.protocol().label()
                    + (spec.protocol() == PingPongProtocol.UNIX_DATAGRAM ? ": a Unix-domain socket does not cross hosts" : ""));
        }
        if (spec.serverMuxer() != Muxer.BLOCKING || spec.idle().isPresent()) {
            return Optional.of("server muxer " + spec.serverMuxer().label() + " is not on the native transport's echo "
                    + "end (the server muxer is --muxer's unless --servmuxer is given): it waits in a blocking recv(2); "
                    + "allowed: blocking; `serve --transport nio` runs the others");
        }
        return Optional.empty();
    }

    /**
     * Opens the listener or the UDP socket on an ephemeral port of {@code local}.
     *
     * @throws IOException naming the call that failed (socket, setsockopt, bind, listen), or a spec
     *     this end cannot run ({@link #refusal}); nothing is left open
     */
    static NativeEchoEnd open(PingPongSpec spec, InetAddress local) throws IOException {
        Optional<String> refused = refusal(spec);
        if (refused.isPresent()) {
            throw new IOException(refused.get());
        }
        NativeEchoEnd e = new NativeEchoEnd(spec);
        try {
            if (e.tcp) {
                e.listener = NativeSocket.tcp(spec.family());
                device(spec, e.listener);
                if (spec.receiveBufferBytes() > 0) {
                    // before listen, so that the window scale the connection announces covers it
                    e.listener.options().receiveBuffer(spec.receiveBufferBytes());
                }
                e.listener.bindAndListen(local, 0, 1);
            } else {
                e.connected = NativeSocket.udp(spec.family());
                device(spec, e.connected);
                options(spec, e.connected);
                e.connected.bind(local, 0);
                checkBound(spec, e.connected);
            }
            return e;
        } catch (IOException | RuntimeException failed) {
            e.close();
            throw failed;
        }
    }

    @Override
    public int localPort() throws IOException {
        return (listener != null ? listener : connected).localPort();
    }

    @Override
    public void accept(InetAddress from, long timeoutMillis) throws IOException {
        if (!tcp || listener == null || connected != null) {
            throw new IllegalStateException("accept applies once, to a TCP echo end");
        }
        connected = listener.accept((int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis)));
        NativeSocket l = listener;
        listener = null;
        l.close();
        InetAddress came = connected.peerAddress();
        if (!came.equals(from)) {
            throw new IOException("the ping-pong connection came from " + came.getHostAddress()
                    + ", not from the client at " + from.getHostAddress());
        }
        options(spec, connected);
        connected.options().noDelay(spec.noDelay());
        checkBound(spec, connected);
    }

    @Override
    public void connectUdp(InetSocketAddress client) throws IOException {
        if (tcp) {
            throw new IllegalStateException("a TCP echo end accepts its client; connectUdp applies to UDP");
        }
        // connect(2) of a UDP socket sets its peer and returns at once
        connected.connect(client.getAddress(), client.getPort(), (int) Math.max(1, spec.timeout().toMillis()));
        udpConnected = true;
    }

    @Override
    public void start(int maxSize) throws IOException {
        if (echo != null) {
            throw new IllegalStateException("the echo end is started once");
        }
        if (connected == null || (!tcp && !udpConnected)) {
            throw new IllegalStateException("the echo end starts once its client is " + (tcp ? "accepted" : "connected"));
        }
        // from here the echo server owns the socket: closing it closes the end and the socket
        NativeMessageEnd end = new NativeMessageEnd(connected, !tcp);
        // read on this thread at the start and in close(), by getsockopt(TCP_INFO)
        tcpWindow = end.tcpInfo().map(f -> TcpInfoWindow.of(SOURCE, f)).orElse(null);
        if (tcpWindow != null) {
            tcpWindow.open();
        }
        echo = new EchoServer(end, maxSize, spec.timeout().toNanos(), -1, spec.affinity().serverCpu());
        try {
            cpus = echo.startPinned(spec.timeout().toNanos() + PIN_WAIT_NANOS);
        } catch (TransferException e) {
            throw new IOException(e.getMessage(), e);
        }
    }

    /** @return the echo thread, for its allocation counter; null before {@link #start} */
    Thread thread() {
        return echo == null ? null : echo.thread();
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

    /** @return the TCP socket's figures, read by getsockopt as {@link #close} released it; see {@link EchoEnd#tcpInfo()} */
    @Override
    public Optional<LatencyTcpInfo.End> tcpInfo() {
        return tcpRead;
    }

    /**
     * Reads a TCP socket's {@code TCP_INFO} while it is open, then stops the echo thread (within a
     * poll slice, bounded by the spec's timeout), then closes every socket.
     */
    @Override
    public void close() {
        if (tcpWindow != null && tcpRead.isEmpty()) {
            tcpRead = Optional.of(tcpWindow.end());
        }
        if (echo != null) {
            // the echo server's end owns the connected socket: closing it closes the socket
            echo.close();
            connected = null;
        }
        for (NativeSocket s : new NativeSocket[] {listener, connected}) {
            if (s != null) {
                try {
                    s.close();
                } catch (NativeSocketException ignored) {
                    // close(2) releases the descriptor even when it reports an error
                }
            }
        }
        listener = null;
        connected = null;
    }

    static void device(PingPongSpec spec, NativeSocket s) throws NativeSocketException {
        if (spec.bindToDevice().isPresent()) {
            BindToDevice.bind(s, spec.bindToDevice().get());
        }
    }

    /** The traffic class and the buffers, as the client asked. */
    static void options(PingPongSpec spec, NativeSocket s) throws NativeSocketException {
        s.options().trafficClass(spec.trafficClass());
        if (spec.sendBufferBytes() > 0) {
            s.options().sendBuffer(spec.sendBufferBytes());
        }
        if (spec.receiveBufferBytes() > 0) {
            s.options().receiveBuffer(spec.receiveBufferBytes());
        }
    }

    /** @throws IOException when the socket's SO_BINDTODEVICE does not read back as the spec's interface */
    static void checkBound(PingPongSpec spec, NativeSocket s) throws IOException {
        if (spec.bindToDevice().isEmpty()) {
            return;
        }
        Optional<String> bound = BindToDevice.read(s);
        if (!bound.equals(spec.bindToDevice())) {
            throw new IOException("bindtodev " + spec.bindToDevice().get() + ": " + s + " reads back as bound to "
                    + bound.orElse("no interface"));
        }
    }
}
