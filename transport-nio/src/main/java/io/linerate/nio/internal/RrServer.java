package io.linerate.nio.internal;

import io.linerate.core.AddressFamily;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.ends.RrServerEnd;
import io.linerate.core.spi.latency.RrTcpInfo;
import io.linerate.core.spi.tcp.TcpInfoSources;
import io.linerate.core.spi.tcp.TcpInfoWindow;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.agrona.concurrent.IdleStrategy;

/**
 * The request/response server: one thread and one selector for the listener and every connection,
 * waiting in the selector or, with an idle strategy, polling it ({@code selectNow}) and idling
 * through the strategy between polls that found nothing.
 * Each connection reads a request of a fixed size, then writes a response of a fixed size, until
 * the client closes it. Counts accepted connections and responses sent. Steady state allocates
 * nothing per transaction (shared buffers, a counter pair per connection).
 */
public final class RrServer implements RrServerEnd {
    /** The figures' {@link LatencyTcpInfo.End#source()}: each connection read as it closed. */
    static final String SOURCE = "TCP_INFO of the server's sockets, each read as its client closed it; window: "
            + "the connections' lives; retransmits summed, the other figures the first connection's";
    private final ServerSocketChannel listener;
    private final Selector selector;
    private final int requestBytes;
    private final int responseBytes;
    private final boolean noDelay;
    private final ByteBuffer scratch;
    private final ByteBuffer response;
    private final Thread thread;
    private final IdleStrategy idle;
    private volatile boolean stop;
    private volatile long accepts;
    private volatile long served;
    private volatile Throwable failure;
    /** Whether to read each connection's TCP_INFO as it closes: null for no, else why not (empty: read). */
    private volatile String tcpInfoMode;
    private final List<LatencyTcpInfo.End> tcpEnds = new ArrayList<>();
    /** Whether {@link #tcpInfo()} has read the connections still open; guarded by {@link #tcpEnds}. */
    private boolean openRead;

    private RrServer(ServerSocketChannel listener, Selector selector, int requestBytes, int responseBytes,
                     boolean noDelay, IdleStrategy idle) {
        this.listener = listener;
        this.selector = selector;
        this.requestBytes = requestBytes;
        this.responseBytes = responseBytes;
        this.noDelay = noDelay;
        this.idle = idle;
        this.scratch = ByteBuffer.allocateDirect(Math.min(requestBytes, 256 * 1024));
        this.response = ByteBuffer.allocateDirect(responseBytes);
        this.thread = new Thread(this::serve, "linerate-rr-server");
        this.thread.setDaemon(true);
    }

    /**
     * Binds to an ephemeral port on the family's loopback address.
     *
     * @param idle how to idle between polls of the selector; null to wait in the selector
     * @throws IOException when the socket cannot be opened or bound; nothing is left open
     */
    public static RrServer open(AddressFamily family, int requestBytes, int responseBytes, boolean noDelay,
                                IdleStrategy idle) throws IOException {
        return open(family, family.loopbackAddress(), requestBytes, responseBytes, noDelay, idle);
    }

    /**
     * As {@link #open(AddressFamily, int, int, boolean, IdleStrategy)}, bound to an ephemeral port
     * on {@code bind}, an address of the family (the peer agent's end binds the address its client
     * reached).
     */
    public static RrServer open(AddressFamily family, java.net.InetAddress bind, int requestBytes, int responseBytes,
                                boolean noDelay, IdleStrategy idle) throws IOException {
        List<AutoCloseable> opened = new ArrayList<>();
        try {
            ServerSocketChannel l = ServerSocketChannel.open(Sockets.protocolFamily(family));
            opened.add(l);
            l.bind(new InetSocketAddress(bind, 0), 1024);
            l.configureBlocking(false);
            Selector s = Selector.open();
            opened.add(s);
            l.register(s, SelectionKey.OP_ACCEPT);
            return new RrServer(l, s, requestBytes, responseBytes, noDelay, idle);
        } catch (IOException | RuntimeException e) {
            Resources.closeQuietly(opened);
            throw e;
        }
    }

    /** @return where clients connect */
    @Override
    public SocketAddress address() throws IOException {
        return listener.getLocalAddress();
    }

    /** Starts the thread. */
    @Override
    public void start() {
        thread.start();
    }

    /** @return connections accepted so far */
    @Override
    public long accepts() {
        return accepts;
    }

    /** @return responses sent in full so far */
    @Override
    public long served() {
        return served;
    }

    /** @return why the server ended early, or null */
    @Override
    public Throwable failure() {
        return failure;
    }

    /** Per-connection progress: bytes of the current request read, of the current response written. */
    private static final class Conn {
        int in;
        int out = -1;
    }

    private void serve() {
        try {
            if (idle == null) {
                while (!stop) {
                    selector.select(this::handle, Endpoint.POLL_MILLIS);
                }
            } else {
                while (!stop) {
                    idle.idle(selector.selectNow(this::handle));
                }
            }
        } catch (Throwable e) {
            failure = e;
        }
    }

    private void handle(SelectionKey key) {
        if (key.channel() == listener) {
            accept();
            return;
        }
        SocketChannel ch = (SocketChannel) key.channel();
        Conn c = (Conn) key.attachment();
        try {
            if (c.out < 0) {
                while (c.in < requestBytes) {
                    scratch.clear().limit(Math.min(scratch.capacity(), requestBytes - c.in));
                    int r = ch.read(scratch);
                    if (r < 0) {
                        recordTcp(ch);
                        key.cancel();
                        ch.close();
                        return;
                    }
                    if (r == 0) {
                        return;
                    }
                    c.in += r;
                }
                c.in = 0;
                c.out = 0;
                key.interestOps(SelectionKey.OP_WRITE);
            }
            response.limit(responseBytes).position(c.out);
            ch.write(response);
            c.out = response.position();
            if (c.out == responseBytes) {
                c.out = -1;
                served++;
                key.interestOps(SelectionKey.OP_READ);
            }
        } catch (IOException e) {
            // the client went away (a reset at the end of a run); only this connection ends
            key.cancel();
            Resources.closeQuietly(List.of(ch));
        }
    }

    private void accept() {
        try {
            SocketChannel ch;
            while ((ch = listener.accept()) != null) {
                accepts++;
                try {
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, noDelay);
                    ch.register(selector, SelectionKey.OP_READ, new Conn());
                } catch (IOException e) {
                    Resources.closeQuietly(List.of(ch));
                }
            }
        } catch (IOException e) {
            failure = e;
            stop = true;
        }
    }

    /**
     * Makes the server read each connection's {@code TCP_INFO} (through a {@link TcpInfoSources TCP_INFO
     * source}, sock_diag) as its client closes it, for {@link #tcpInfo()}; call before {@link #start}.
     *
     * @param crr whether the run opens a connection per transaction (tcp_crr): then nothing is read,
     *     and {@link #tcpInfo()} says why
     */
    void readTcpInfo(boolean crr) {
        tcpInfoMode = crr ? RrTcpInfo.CRR : "";
    }

    /**
     * @return once stopped, the connections' figures as {@link RrServerEnd#tcpInfo()} describes them;
     *     connections the server had not seen closed are read now; empty unless {@link #readTcpInfo} was called
     */
    @Override
    public Optional<LatencyTcpInfo.End> tcpInfo() {
        String mode = tcpInfoMode;
        if (mode == null) {
            return Optional.empty();
        }
        if (!mode.isEmpty()) {
            return Optional.of(LatencyTcpInfo.End.unavailable(SOURCE, mode));
        }
        synchronized (tcpEnds) {
            if (!openRead && selector.isOpen()) {
                openRead = true;
                for (SelectionKey k : selector.keys()) {
                    if (k.isValid() && k.channel() instanceof SocketChannel ch && ch.isOpen()) {
                        recordTcp(ch);
                    }
                }
            }
            return Optional.of(RrTcpInfo.aggregate(SOURCE, tcpEnds));
        }
    }

    /** Reads a connection's TCP_INFO before it is closed, when asked to ({@link #readTcpInfo}); once per connection. */
    private void recordTcp(SocketChannel ch) {
        if (!"".equals(tcpInfoMode)) {
            return;
        }
        LatencyTcpInfo.End e;
        try {
            TcpInfoWindow w = TcpInfoWindow.of(SOURCE, TcpInfoSources.connection(
                    (InetSocketAddress) ch.getLocalAddress(), (InetSocketAddress) ch.getRemoteAddress()));
            w.openAtStart();
            e = w.end();
        } catch (IOException | IllegalArgumentException failed) {
            e = LatencyTcpInfo.End.unavailable(SOURCE, "the connection's addresses cannot be read: " + failed.getMessage());
        }
        synchronized (tcpEnds) {
            tcpEnds.add(e);
        }
    }

    /**
     * Stops the serving thread (within a poll interval) and waits for it, at most 1 s; idempotent.
     * Once it has returned, {@link #served()} counts every response written in full.
     */
    @Override
    public void stop() {
        stop = true;
        selector.wakeup();
        try {
            thread.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Stops the thread, then closes every connection, the selector and the listener. */
    @Override
    public void close() {
        stop();
        List<AutoCloseable> all = new ArrayList<>();
        if (selector.isOpen()) {
            for (SelectionKey k : selector.keys()) {
                all.add(k.channel());
            }
        }
        all.add(selector);
        all.add(listener);
        Resources.closeQuietly(all);
    }
}
