package io.linerate.socket.internal;

import io.linerate.core.Muxer;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.ends.RrServerEnd;
import io.linerate.jni.Errno;
import io.linerate.socket.NativeSocket;
import io.linerate.socket.NativeSocketException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;

/**
 * The request/response server (netperf's netserver for TCP_RR and TCP_CRR) on native sockets: one
 * thread waits in one poll(2) ({@link Sockets#pollAll}) for the listener and every connection, as
 * the NIO server waits in its selector. Each connection reads a request of {@code requestBytes},
 * then writes a response of {@code responseBytes}, until the client closes it. Connections are raw
 * descriptors with their progress in arrays made up front, and data moves by direct buffers'
 * addresses, so serving allocates nothing per transaction nor per connection. At most
 * {@value #MAX_CONNECTIONS} connections are served at once; further ones wait in the listener's
 * backlog until one closes.
 */
final class NativeRrServer implements RrServerEnd {
    /** The figures' {@link LatencyTcpInfo.End#source()}, for this host; the client names its own. */
    static final String TCP_SOURCE = "TCP_INFO of the server's sockets, each read as its client closed it";
    /** Connections served at once: one poll(2) takes at most 1024 descriptors, the listener's among them. */
    static final int MAX_CONNECTIONS = 1023;
    /** Longest single poll(2), so that a stop is seen, ms. */
    private static final int POLL_MILLIS = 10;
    /** Longest wait in {@link #stop()} for the thread to end, ms. */
    private static final long JOIN_MILLIS = 5_000;
    /** Largest single read of a request, bytes. */
    private static final int SCRATCH_BYTES = 256 * 1024;

    private final NativeSocket listener;
    private final InetAddress bound;
    private final int requestBytes;
    private final int responseBytes;
    private final boolean noDelay;
    private final ByteBuffer scratch;
    private final ByteBuffer response;
    private final long scratchAddress;
    private final long responseAddress;
    /** Triples {fd, events, revents} for {@link Sockets#pollAll}: the listener's first when it is polled. */
    private final ByteBuffer entries;
    private final long entriesAddress;
    private final int[] fds = new int[MAX_CONNECTIONS];
    /** Bytes of the current request read, per connection. */
    private final int[] in = new int[MAX_CONNECTIONS];
    /** Bytes of the current response written, per connection; -1 while it reads its request. */
    private final int[] out = new int[MAX_CONNECTIONS];
    private int open;
    private final Thread thread;
    private volatile boolean stop;
    private volatile boolean closing;
    private boolean released;
    private volatile long accepts;
    private volatile long served;
    private volatile Throwable failure;
    /** Each connection's TCP_INFO, read by the server's thread as it ends. */
    private final ConnectionsTcpInfo tcp;
    /** Whether {@link #tcpInfo()} has read the connections still open; guarded by this. */
    private boolean openRead;

    private NativeRrServer(NativeSocket listener, InetAddress bound, RrSpec spec) {
        this.listener = listener;
        this.bound = bound;
        this.requestBytes = spec.requestBytes();
        this.responseBytes = spec.responseBytes();
        this.noDelay = spec.noDelay();
        this.tcp = new ConnectionsTcpInfo(TCP_SOURCE, spec.crr() ? "tcp_crr opens and closes a connection per "
                + "transaction: the server reads no TCP_INFO" : null);
        this.scratch = ByteBuffer.allocateDirect(Math.min(requestBytes, SCRATCH_BYTES));
        this.response = ByteBuffer.allocateDirect(responseBytes);
        this.scratchAddress = NativeSocket.address(scratch);
        this.responseAddress = NativeSocket.address(response);
        this.entries = ByteBuffer.allocateDirect((MAX_CONNECTIONS + 1) * 3 * Integer.BYTES).order(ByteOrder.nativeOrder());
        this.entriesAddress = NativeSocket.address(entries);
        this.thread = new Thread(this::serve, "linerate-rr-server");
        this.thread.setDaemon(true);
    }

    /** @return why the spec cannot have its server on native sockets (its muxer), or empty */
    static Optional<String> refusal(RrSpec spec) {
        if (spec.muxer() != Muxer.SELECTOR || spec.idle().isPresent()) {
            return Optional.of("muxer " + spec.muxer().label() + " is not on the native transport's request/response "
                    + "server: it waits in poll(2), as the selector does; allowed: selector; `serve --transport nio` "
                    + "runs the others");
        }
        return Optional.empty();
    }

    /**
     * Listens on an ephemeral port of {@code local} (backlog 1024).
     *
     * @throws IOException naming the call that failed (socket, bind, listen), or a spec this server
     *     cannot run ({@link #refusal}); nothing is left open
     */
    static NativeRrServer open(RrSpec spec, InetAddress local) throws IOException {
        Optional<String> refused = refusal(spec);
        if (refused.isPresent()) {
            throw new IOException(refused.get());
        }
        NativeSocket l = NativeSocket.tcp(spec.family());
        try {
            l.bindAndListen(local, 0, 1024);
            return new NativeRrServer(l, local, spec);
        } catch (IOException | RuntimeException e) {
            closeQuietly(l);
            throw e;
        }
    }

    @Override
    public SocketAddress address() throws IOException {
        return new InetSocketAddress(bound, listener.localPort());
    }

    @Override
    public void start() {
        thread.start();
    }

    /** @return the serving thread, for its allocation counter */
    Thread thread() {
        return thread;
    }

    @Override
    public long accepts() {
        return accepts;
    }

    @Override
    public long served() {
        return served;
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    private void serve() {
        try {
            while (!stop) {
                boolean listening = open < MAX_CONNECTIONS;
                int count = fill(listening);
                int r = Sockets.pollAll(entriesAddress, count, POLL_MILLIS);
                if (r < 0) {
                    throw NativeSocketException.of("poll(" + count + " descriptors)", r);
                }
                if (r == 0) {
                    continue;
                }
                int base = listening ? 1 : 0;
                int was = open;
                for (int i = 0; i < was; i++) {
                    if (entries.getInt(((base + i) * 3 + 2) * Integer.BYTES) != 0 && !handle(i)) {
                        tcp.record(fds[i]);
                        Sockets.close(fds[i]);
                        fds[i] = -1;
                    }
                }
                compact();
                if (listening && entries.getInt(2 * Integer.BYTES) != 0) {
                    accept();
                }
            }
        } catch (Throwable e) {
            failure = e;
        } finally {
            if (closing) {
                release();
            }
        }
    }

    /** Writes the poll entries: the listener's when {@code listening}, then each connection's. @return how many */
    private int fill(boolean listening) {
        int k = 0;
        if (listening) {
            entry(k++, listener.fd(), Layout.POLLIN);
        }
        for (int i = 0; i < open; i++) {
            entry(k++, fds[i], out[i] < 0 ? Layout.POLLIN : Layout.POLLOUT);
        }
        return k;
    }

    private void entry(int k, int fd, int events) {
        int at = k * 3 * Integer.BYTES;
        entries.putInt(at, fd);
        entries.putInt(at + Integer.BYTES, events);
        entries.putInt(at + 2 * Integer.BYTES, 0);
    }

    /**
     * Moves connection {@code i} on as far as its socket lets it without waiting.
     *
     * @return false when the connection ended (the client closed it, or it failed: only it ends)
     */
    private boolean handle(int i) {
        int fd = fds[i];
        while (true) {
            if (out[i] < 0) {
                int n = Sockets.recv(fd, scratchAddress, Math.min(scratch.capacity(), requestBytes - in[i]), 0);
                if (n == -Errno.EAGAIN) {
                    return true;
                }
                if (n <= 0) {
                    // the end of the stream, or a reset at the end of a run
                    return false;
                }
                in[i] += n;
                if (in[i] < requestBytes) {
                    continue;
                }
                in[i] = 0;
                out[i] = 0;
            }
            int n = Sockets.send(fd, responseAddress + out[i], responseBytes - out[i], 0);
            if (n == -Errno.EAGAIN) {
                return true;
            }
            if (n < 0) {
                return false;
            }
            out[i] += n;
            if (out[i] == responseBytes) {
                out[i] = -1;
                served++;
                return true;
            }
        }
    }

    /** Drops the closed connections (fd -1), keeping the others' progress. */
    private void compact() {
        int k = 0;
        for (int i = 0; i < open; i++) {
            if (fds[i] >= 0) {
                fds[k] = fds[i];
                in[k] = in[i];
                out[k] = out[i];
                k++;
            }
        }
        open = k;
    }

    /** Accepts one connection: the listener was readable. */
    private void accept() throws NativeSocketException {
        int fd = Sockets.accept(listener.fd(), 0);
        if (fd == -Errno.ETIMEDOUT || fd == -Errno.EAGAIN || fd == -Errno.ECONNABORTED) {
            // the client gave up before it was accepted
            return;
        }
        if (fd < 0) {
            throw NativeSocketException.of("accept4(fd " + listener.fd() + ")", fd);
        }
        accepts++;
        if (Sockets.setInt(fd, Layout.IPPROTO_TCP, Layout.TCP_NODELAY, noDelay ? 1 : 0) < 0) {
            Sockets.close(fd);
            return;
        }
        fds[open] = fd;
        in[open] = 0;
        out[open] = -1;
        open++;
    }

    /**
     * @return once {@link #stop stopped}, the connections' {@code TCP_INFO} as
     *     {@link RrServerEnd#tcpInfo()} describes it: each read by getsockopt as its client closed it,
     *     those still open read now; while the thread runs, why there is none yet
     */
    @Override
    public synchronized Optional<LatencyTcpInfo.End> tcpInfo() {
        if (thread.isAlive()) {
            return Optional.of(LatencyTcpInfo.End.unavailable(TCP_SOURCE, "the server's thread had not stopped"));
        }
        if (!openRead && !released) {
            openRead = true;
            for (int i = 0; i < open; i++) {
                if (fds[i] >= 0) {
                    tcp.record(fds[i]);
                }
            }
        }
        return Optional.of(tcp.end());
    }

    /**
     * Stops serving and waits for the thread, at most {@value #JOIN_MILLIS} ms (it sees the stop
     * within one poll slice); idempotent. Once it has returned, {@link #served()} counts every
     * response written in full.
     */
    @Override
    public void stop() {
        stop = true;
        try {
            thread.join(JOIN_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Stops the thread, then closes every connection and the listener; a thread that has not ended
     * yet closes them itself as it ends, so that no descriptor is closed under a call.
     */
    @Override
    public void close() {
        closing = true;
        stop();
        if (!thread.isAlive()) {
            release();
        }
    }

    private synchronized void release() {
        if (released) {
            return;
        }
        released = true;
        for (int i = 0; i < open; i++) {
            Sockets.close(fds[i]);
        }
        open = 0;
        closeQuietly(listener);
    }

    private static void closeQuietly(NativeSocket s) {
        try {
            s.close();
        } catch (NativeSocketException ignored) {
            // close(2) releases the descriptor even when it reports an error
        }
    }
}
