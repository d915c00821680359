package io.linerate.peers.iperf3;

import io.linerate.peers.internal.KeepAlive;
import io.linerate.peers.internal.SamePortListener;
import io.linerate.peers.server.PeerServer;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * linerate as a server for unmodified iperf3 clients ({@code iperf3 -c}): one TCP port for
 * control and TCP data connections, and UDP on the same port number for UDP tests' connect
 * messages. Unlike iperf3's own server it runs up to {@code --max-sessions} tests at once; a
 * client beyond them is answered ACCESS_DENIED.
 *
 * <p>Every TCP connection starts with a cookie: one that a running test is waiting for joins that
 * test as a data stream; any other opens a new test ({@link Iperf3ServerSession}). UDP's connect
 * message carries no cookie, so a UDP test is told apart by its client's address alone: one UDP
 * test per client address at a time, a second is answered ACCESS_DENIED.
 *
 * <p>A client outside {@link Iperf3ServerConfig#allowFrom()} is closed before anything is read
 * from it. Every read is bounded by the I/O timeout; each test's sockets and threads are released
 * when it ends, on every path.
 */
public final class Iperf3Agent implements PeerServer {
    private static final Logger LOG = LoggerFactory.getLogger(Iperf3Agent.class);
    /** Connections whose cookie is still being read, at most; beyond, new connections are closed. */
    static final int MAX_HANDSHAKES = 256;

    private final Iperf3ServerConfig config;
    private final SamePortListener ports;
    private final DatagramChannel udp;
    private final Set<Iperf3ServerSession> sessions = ConcurrentHashMap.newKeySet();
    private final Map<String, Iperf3ServerSession> awaitingTcp = new ConcurrentHashMap<>();
    private final Map<InetAddress, Iperf3ServerSession> udpByClient = new ConcurrentHashMap<>();
    private final AtomicInteger handshakes = new AtomicInteger();
    /** TCP connections accepted so far, counted on the accept thread. */
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicLong started = new AtomicLong();
    /** Held by the one test whose window the listening socket has. */
    private final Semaphore listenerWindow = new Semaphore(1);
    private final ServedTestListener listener;

    private Iperf3Agent(Iperf3ServerConfig config, SamePortListener ports, ServedTestListener listener) {
        this.config = config;
        this.ports = ports;
        this.listener = listener;
        this.udp = ports.udp();
    }

    /**
     * Binds the TCP port and the UDP port of the same number, and starts serving; nothing is told
     * of the tests served but the log.
     *
     * @throws IOException when either cannot be bound; the message names address and port
     */
    public static Iperf3Agent start(Iperf3ServerConfig config) throws IOException {
        return start(config, ServedTestListener.NONE);
    }

    /**
     * Binds the TCP port and the UDP port of the same number, and starts serving.
     *
     * @param listener receives each test's start, its interval lines (per reporting interval: the
     *     client's {@code interval} parameter, 1 s when it sends none) and its summary, which is
     *     what the server sends the client as its results
     * @throws IOException when either cannot be bound; the message names address and port
     */
    public static Iperf3Agent start(Iperf3ServerConfig config, ServedTestListener listener) throws IOException {
        // the data sockets of UDP tests bind the same port, each connected to its client
        SamePortListener ports = SamePortListener.open(config, "iperf3",
                u -> u.setOption(StandardSocketOptions.SO_REUSEADDR, true), LOG);
        Iperf3Agent a = new Iperf3Agent(config, ports, java.util.Objects.requireNonNull(listener, "listener"));
        ports.start("linerate-iperf3", a::admit, a::udpLoop);
        return a;
    }

    /** @return the TCP port's address, with the port the kernel chose for port 0 */
    @Override
    public InetSocketAddress address() {
        return ports.address();
    }

    /**
     * @return tests running now: a test that released its connections counts no more, though its
     *     thread may not have left the list yet
     */
    @Override
    public int activeSessions() {
        return (int) sessions.stream().filter(s -> !s.hasEnded()).count();
    }

    /** @return tests started since the server started */
    public long sessionsStarted() {
        return started.get();
    }

    /** @return connections and tests refused: not allowed, busy, over a limit */
    public long refusals() {
        return ports.refusals();
    }

    Iperf3ServerConfig config() {
        return config;
    }

    ServedTestListener listener() {
        return listener;
    }

    /** An allowed connection: its cookie is read on a thread of its own, up to {@link #MAX_HANDSHAKES} at once. */
    private void admit(SocketChannel s, InetSocketAddress from) {
        if (handshakes.incrementAndGet() > MAX_HANDSHAKES) {
            handshakes.decrementAndGet();
            ports.refuse();
            LOG.warn("refused {}: {} connections are already sending their cookie", from, MAX_HANDSHAKES);
            SamePortListener.closeQuietly(s);
            return;
        }
        long order = accepted.incrementAndGet(); // the accept order, which the cookies' reading may not keep
        Thread t = new Thread(() -> handshake(s, from, order), "linerate-iperf3-conn");
        t.setDaemon(true);
        t.start();
    }

    /** Reads the cookie: a waiting test's data stream joins it, any other cookie starts a test. */
    private void handshake(SocketChannel s, InetSocketAddress from, long order) {
        BoundedChannel ch = null;
        boolean handedOver = false;
        try {
            ch = BoundedChannel.accepted(s, config.ioTimeout());
            ByteBuffer cookie = ByteBuffer.allocate(Iperf3Wire.COOKIE_BYTES);
            ch.readFully(cookie);
            String key = new String(cookie.array(), StandardCharsets.US_ASCII);
            Iperf3ServerSession waiting = awaitingTcp.get(key);
            if (waiting != null) {
                handedOver = waiting.offerTcp(ch, order);
                if (!handedOver) {
                    LOG.warn("{}: a data connection for a test that takes no more streams; closed", from);
                }
                return;
            }
            if (ports.isClosed() || sessions.size() >= config.limits().maxSessions()) {
                ports.refuse();
                LOG.warn("refused {}: the server runs at most {} tests at once (--max-sessions) and all are busy; "
                        + "sent ACCESS_DENIED", from, config.limits().maxSessions());
                ch.writeFully(ByteBuffer.wrap(new byte[] {Iperf3State.ACCESS_DENIED}));
                return;
            }
            // the control connection is silent during the test: keepalive fails it on a black-holed path,
            // which ends a UDP sender here that would otherwise send into it to the test's end
            KeepAlive.forSilence(ch.channel(), config.ioTimeout());
            Iperf3ServerSession session = new Iperf3ServerSession(this, ch, from, key, started.incrementAndGet());
            sessions.add(session);
            handedOver = true;
            handshakes.decrementAndGet();
            try {
                session.run();
            } finally {
                sessions.remove(session);
            }
            return;
        } catch (IOException e) {
            LOG.warn("{}: no cookie within the I/O timeout or the connection failed: {}", from, e.getMessage());
        } finally {
            if (!handedOver) {
                handshakes.decrementAndGet();
                if (ch != null) {
                    ch.close();
                } else {
                    SamePortListener.closeQuietly(s);
                }
            }
        }
    }

    /**
     * Before a TCP test with a window ({@code -w}) opens its streams: the listening socket is bound
     * again with that receive buffer, as iperf3's server does, so the streams get the window scale
     * negotiated for it; one test at a time, waiting at most the I/O timeout for another's streams.
     *
     * @param window the test's window, bytes; 0 = none, nothing is done
     * @return whether the listener took it: then {@link #windowDone()} must follow
     * @throws IOException when the port could not be bound again (the server then stops listening)
     */
    boolean windowOnListener(int window) throws IOException, InterruptedException {
        if (window <= 0 || !listenerWindow.tryAcquire(config.ioTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
            return false;
        }
        try {
            ports.tcpReceiveBuffer(window);
            return true;
        } catch (IOException e) {
            listenerWindow.release();
            throw e;
        }
    }

    /** After the streams of a test that had {@link #windowOnListener}: the listener gets its default buffer again. */
    void windowDone() {
        try {
            ports.tcpReceiveBuffer(0);
        } catch (IOException e) {
            LOG.error("{}; the iperf3 server no longer accepts TCP connections", e.getMessage());
        } finally {
            listenerWindow.release();
        }
    }

    /** A test waits for TCP data connections with its cookie. */
    void awaitTcp(String cookie, Iperf3ServerSession s) {
        awaitingTcp.put(cookie, s);
    }

    void stopAwaitingTcp(String cookie) {
        awaitingTcp.remove(cookie);
    }

    /** @return whether {@code s} is now the one UDP test of its client's address */
    boolean claimUdp(InetAddress client, Iperf3ServerSession s) {
        return udpByClient.putIfAbsent(client, s) == null;
    }

    void releaseUdp(InetAddress client, Iperf3ServerSession s) {
        udpByClient.remove(client, s);
    }

    void refusedOne() {
        ports.refuse();
    }

    private void udpLoop() {
        ByteBuffer b = ByteBuffer.allocate(65536);
        while (!ports.isClosed()) {
            SocketAddress src;
            try {
                b.clear();
                src = udp.receive(b);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (ports.isClosed()) {
                    return;
                }
                LOG.debug("UDP receive failed: {}", e.getMessage());
                continue;
            }
            if (!(src instanceof InetSocketAddress from) || b.position() != 4 || !isConnectMessage(b)) {
                continue; // not a connect message: stray data after a test ended, or noise
            }
            if (!config.allowFrom().allows(from.getAddress())) {
                LOG.warn("ignored a UDP connect message from {}: not in --allow-from {}", from, config.allowFrom());
                continue;
            }
            Iperf3ServerSession s = udpByClient.get(from.getAddress());
            if (s == null || !s.offerUdp(from)) {
                LOG.debug("ignored a UDP connect message from {}: no UDP test of that address waits for streams", from);
            }
        }
    }

    private static boolean isConnectMessage(ByteBuffer b) {
        int v = b.order(ByteOrder.BIG_ENDIAN).getInt(0);
        return v == Iperf3Wire.UDP_CONNECT_MSG || Integer.reverseBytes(v) == Iperf3Wire.UDP_CONNECT_MSG;
    }

    /**
     * Stops serving: closes both ports and ends every test, whose client is told SERVER_TERMINATE
     * as iperf3's server tells it, then waits for their threads, each bounded by twice the I/O
     * timeout; a test still running then has its connections closed. Each test still running
     * reports its summary, ended by the stop.
     */
    @Override
    public void close() {
        if (!ports.closePorts()) {
            return;
        }
        for (Iperf3ServerSession s : sessions) {
            s.abort();
        }
        try {
            ports.join(config.ioTimeout().toMillis());
            for (Iperf3ServerSession s : sessions) {
                s.awaitEnd(config.ioTimeout().toMillis() * 2);
            }
            for (Iperf3ServerSession s : sessions) {
                s.forceClose();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("iperf3 server stopped after {} tests ({} refusals)", started.get(), ports.refusals());
    }
}
