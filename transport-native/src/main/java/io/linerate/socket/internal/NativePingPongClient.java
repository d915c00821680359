package io.linerate.socket.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.PingPongClient;
import io.linerate.core.spi.latency.PingPongSweep;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import io.linerate.socket.SocketOptions;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Optional;

/**
 * The measuring end of a ping-pong whose echo end runs on a peer, on a native TCP or UDP socket:
 * core's sweep ({@link PingPongSweep}) on a {@link NativeMessageEnd} (every receive waits inside one
 * recv(2) of at most 10 ms, nothing allocated per message). The UDP socket is connected to the echo end with
 * {@link PingPongSpec#connect()}, and sends with sendto(2) without it. With
 * {@link PingPongSpec#bindToDevice()} the socket is bound to the interface before it binds, and
 * the binding is read back. The MSS is read from this end's socket ({@code TCP_MAXSEG}).
 */
final class NativePingPongClient implements PingPongClient {
    private final PingPongSpec spec;
    private final boolean tcp;
    private NativeSocket socket;
    private boolean connected;

    private NativePingPongClient(PingPongSpec spec, NativeSocket socket) {
        this.spec = spec;
        this.tcp = spec.protocol() == PingPongProtocol.TCP;
        this.socket = socket;
    }

    /**
     * Opens the socket on an ephemeral port of {@code local}, with the spec's options set.
     *
     * @throws IOException naming the call that failed (socket, setsockopt, bind), or a protocol other
     *     than TCP or UDP; nothing is left open
     */
    static NativePingPongClient open(PingPongSpec spec, InetAddress local) throws IOException {
        boolean tcp = spec.protocol() == PingPongProtocol.TCP;
        if (!tcp && spec.protocol() != PingPongProtocol.UDP) {
            throw new IOException("a ping-pong with a peer runs tcp or udp, not " + spec.protocol().label());
        }
        NativeSocket s = tcp ? NativeSocket.tcp(spec.family()) : NativeSocket.udp(spec.family());
        try {
            NativeEchoEnd.device(spec, s);
            NativeEchoEnd.options(spec, s);
            if (tcp) {
                s.options().noDelay(spec.noDelay());
            }
            s.bind(local, 0);
            NativeEchoEnd.checkBound(spec, s);
            return new NativePingPongClient(spec, s);
        } catch (IOException | RuntimeException e) {
            closeQuietly(s);
            throw e;
        }
    }

    @Override
    public int localPort() throws IOException {
        return open().localPort();
    }

    /** @throws IOException naming connect(2) and the errno, or the wait that ran out */
    @Override
    public void connect(InetSocketAddress echo, long timeoutMillis) throws IOException {
        NativeSocket s = open();
        if (connected) {
            throw new IllegalStateException("the ping-pong client is connected once");
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis));
        if (tcp || spec.connect()) {
            // a UDP socket's connect(2) sets its peer and returns at once
            s.connect(echo.getAddress(), echo.getPort(), timeout);
        } else {
            // sfnt-pingpong without --connect: sendto(2) the echo end, take its answers from recv(2)
            s.target(echo.getAddress(), echo.getPort());
        }
        connected = true;
    }

    @Override
    public AppliedOptions options() throws IOException {
        NativeSocket s = open();
        Optional<TcpMss> mss = Optional.empty();
        if (tcp) {
            int m = s.options().maxSegment();
            mss = Optional.of(TcpMss.read(spec.family(), m, m, "TCP_MAXSEG" + TcpMss.ONE_END));
        }
        SocketOptions o = s.options();
        return new AppliedOptions(spec.trafficClass(), o.trafficClass(), spec.sendBufferBytes(), o.sendBuffer(),
                spec.receiveBufferBytes(), o.receiveBuffer(), spec.noDelay(), tcp && o.noDelay(), mss);
    }

    @Override
    public PingPongResult run(Clock clock, RunFacts facts, AppliedOptions options, long[] roundTrips)
            throws TransferException {
        if (!connected || socket == null) {
            throw new IllegalStateException("the ping-pong client runs once, connected to its echo end");
        }
        NativeMessageEnd end;
        try {
            end = new NativeMessageEnd(socket, !tcp);
        } catch (NativeSocketException e) {
            close();
            throw new TransferException("cannot set up the " + spec.protocol().label() + " ping-pong client: "
                    + e.getMessage(), e);
        }
        // from here the end owns the socket: closing it closes the socket
        socket = null;
        try (NativeMessageEnd e = end) {
            return PingPongSweep.sweep(spec, clock, facts, e, null, options, roundTrips, Optional.empty());
        }
    }

    private NativeSocket open() throws IOException {
        if (socket == null) {
            throw new IOException("the ping-pong client's socket is closed");
        }
        return socket;
    }

    @Override
    public void close() {
        if (socket != null) {
            closeQuietly(socket);
            socket = null;
        }
    }

    private static void closeQuietly(NativeSocket s) {
        try {
            s.close();
        } catch (NativeSocketException ignored) {
            // close(2) releases the descriptor even when it reports an error
        }
    }
}
