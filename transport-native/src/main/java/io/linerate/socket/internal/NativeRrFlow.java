package io.linerate.socket.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TcpMss;
import io.linerate.core.spi.latency.RrConnection;
import io.linerate.core.spi.latency.RrFlowLoop;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.Locale;
import java.util.Optional;

/**
 * One request/response flow on native sockets, on core's flow loop ({@link RrFlowLoop}: the
 * transactions, the window, the open-loop schedule): a raw non-blocking TCP descriptor, with every
 * wait a poll(2) of at most {@value #SLICE_MILLIS} ms inside the spec's timeout. The server's
 * address bytes and both messages lie in direct buffers made up front, and connect, send, recv and
 * close take their addresses, so a transaction allocates nothing, a TCP_CRR one (connect per
 * transaction) neither. The MSS of the first connection is read from its socket
 * ({@code TCP_MAXSEG}); the far end's is the server's own to read.
 */
final class NativeRrFlow extends RrFlowLoop {
    /** Longest single poll(2) of a transaction's step, ms. */
    static final int SLICE_MILLIS = 100;
    /** Largest single read of a response, bytes. */
    private static final int SCRATCH_BYTES = 256 * 1024;

    private final int family;
    private final int port;
    private final String server;
    private final InetSocketAddress serverSocket;
    private final ByteBuffer serverAddress;
    private final long serverAddressAt;
    private final ByteBuffer request;
    private final long requestAt;
    private final ByteBuffer response;
    private final long responseAt;
    private int fd = -1;

    /**
     * @param server the server's address, of the spec's family
     * @param firstScheduled clock reading of the first open-loop send, ns; ignored in closed loop
     * @throws UnsatisfiedLinkError naming the cause when the library cannot be loaded
     */
    NativeRrFlow(int id, RrSpec spec, InetSocketAddress server, Clock clock, long firstScheduled) {
        super(id, spec, clock, firstScheduled);
        byte[] raw = server.getAddress().getAddress();
        this.family = spec.family() == AddressFamily.IPV6 ? 6 : 4;
        this.port = server.getPort();
        this.serverSocket = server;
        this.server = server.getAddress().getHostAddress() + " port " + port;
        this.serverAddress = ByteBuffer.allocateDirect(raw.length).put(0, raw);
        this.request = ByteBuffer.allocateDirect(spec.requestBytes());
        this.response = ByteBuffer.allocateDirect(Math.min(spec.responseBytes(), SCRATCH_BYTES));
        this.serverAddressAt = NativeSocket.address(serverAddress);
        this.requestAt = NativeSocket.address(request);
        this.responseAt = NativeSocket.address(response);
    }

    @Override
    protected void connect(long n) throws IOException {
        int s = Sockets.tcpSocket(family);
        if (s < 0) {
            throw failed("open a socket", NativeSocketException.of("socket(IPv" + family + ", SOCK_STREAM)", s), n);
        }
        fd = s;
        int r = Sockets.setInt(s, Layout.IPPROTO_TCP, Layout.TCP_NODELAY, spec.noDelay() ? 1 : 0);
        if (r < 0) {
            throw failed("set TCP_NODELAY", NativeSocketException.of("setsockopt(fd " + s + ", TCP_NODELAY)", r), n);
        }
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutNanos / 1_000_000L));
        r = Sockets.connect(s, family, serverAddressAt, port, timeout);
        if (r == -Errno.ETIMEDOUT) {
            throw timedOut("connect to " + server, n);
        }
        if (r < 0) {
            throw failed("connect", NativeSocketException.of("connect(fd " + s + ", " + server + ")", r), n);
        }
        if (!connectedOnce()) {
            int mss = Sockets.getInt(s, Layout.IPPROTO_TCP, Layout.TCP_MAXSEG);
            if (mss < 0) {
                throw failed("read its MSS", NativeSocketException.of("getsockopt(fd " + s + ", TCP_MAXSEG)", mss), n);
            }
            firstConnection(null, Optional.of(TcpMss.read(spec.family(), mss, mss, "TCP_MAXSEG" + TcpMss.ONE_END)));
            connectionForTcpInfo(connection(s));
        }
    }

    /** Writes the whole request, then reads the whole response, each within the timeout. */
    @Override
    protected void transact(long n) throws IOException {
        int total = spec.requestBytes();
        int sent = 0;
        long deadline = System.nanoTime() + timeoutNanos;
        while (sent < total) {
            int k = Sockets.send(fd, requestAt + sent, total - sent, slice(deadline));
            if (k == -Errno.EAGAIN) {
                if (deadline - System.nanoTime() <= 0) {
                    throw timedOut("send its request", n);
                }
                continue;
            }
            if (k < 0) {
                throw failed("send its request", NativeSocketException.of("send(fd " + fd + ")", k), n);
            }
            sent += k;
        }
        total = spec.responseBytes();
        int got = 0;
        deadline = System.nanoTime() + timeoutNanos;
        while (got < total) {
            int k = Sockets.recv(fd, responseAt, Math.min(response.capacity(), total - got), slice(deadline));
            if (k == -Errno.EAGAIN) {
                if (deadline - System.nanoTime() <= 0) {
                    throw timedOut("receive a response", n);
                }
                continue;
            }
            if (k == 0) {
                throw new IOException(String.format(Locale.ROOT,
                        "flow %d: the server closed the connection after %d transactions", id, n));
            }
            if (k < 0) {
                throw failed("receive a response", NativeSocketException.of("recv(fd " + fd + ")", k), n);
            }
            got += k;
        }
    }

    @Override
    protected void disconnect() throws IOException {
        int s = fd;
        fd = -1;
        int r = Sockets.close(s);
        if (r < 0) {
            // close(2) released the descriptor all the same
            throw NativeSocketException.of("close(fd " + s + ")", r);
        }
    }

    @Override
    protected void release() {
        if (fd >= 0) {
            Sockets.close(fd);
            fd = -1;
        }
    }

    /**
     * @return the connection on {@code fd} for the coordinator's {@code TCP_INFO} reads: this end by
     *     getsockopt on the descriptor (open until the flow ends, after the window closed), the
     *     server's end, when it is in this JVM over loopback (both ends on the server's address),
     *     through a TCP_INFO source by its addresses
     */
    private RrConnection connection(int fd) {
        int localPort = Sockets.localPort(fd);
        return new RrConnection() {
            @Override
            public TcpInfoSources.Found client() {
                return new TcpInfoSources.Found(new NativeTcpConnectionInfo(fd), null);
            }

            @Override
            public TcpInfoSources.Found server() {
                if (localPort < 0) {
                    return new TcpInfoSources.Found(null, NativeSocketException.of("getsockname(fd " + fd + ")", localPort)
                            .getMessage());
                }
                return TcpInfoSources.connection(serverSocket, new InetSocketAddress(serverSocket.getAddress(), localPort));
            }
        };
    }

    /** @return the next poll(2)'s wait: at most {@value #SLICE_MILLIS} ms and the time left, at least 1 ms */
    private static int slice(long deadline) {
        long left = (deadline - System.nanoTime()) / 1_000_000L;
        return (int) Math.max(1, Math.min(SLICE_MILLIS, left));
    }

    private IOException timedOut(String what, long n) {
        return new IOException(String.format(Locale.ROOT,
                "flow %d could not %s within the timeout of %d ms after %d transactions", id, what,
                timeoutNanos / 1_000_000L, n));
    }

    private IOException failed(String what, NativeSocketException e, long n) {
        return new IOException(String.format(Locale.ROOT, "flow %d could not %s after %d transactions: %s", id, what, n,
                e.getMessage()), e);
    }
}
