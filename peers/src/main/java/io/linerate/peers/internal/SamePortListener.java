package io.linerate.peers.internal;

import io.linerate.peers.server.PeerServerConfig;
import java.io.Closeable;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;

/**
 * A server's TCP port and UDP port of the same number, bound together: when either cannot be
 * bound, neither stays open. Its accept loop closes a TCP client outside
 * {@link PeerServerConfig#allowFrom()} before anything is read and counts it refused; every other
 * connection goes to the server's {@link Accepted}. The server's own UDP loop runs on a second
 * thread. Logs go to the server's logger, so they read as the server's.
 */
public final class SamePortListener {
    /** What a server does with an allowed TCP connection; it owns {@code s} from then on. */
    @FunctionalInterface
    public interface Accepted {
        /**
         * Called on the accept thread: refuse or hand off quickly.
         *
         * @param s the connection, blocking, nothing read yet
         * @param from the client's address and port
         */
        void accept(SocketChannel s, InetSocketAddress from);
    }

    /** A socket option or mode set on the UDP port before it is bound. */
    @FunctionalInterface
    public interface UdpSetup {
        /** @throws IOException when the option cannot be set */
        void apply(DatagramChannel udp) throws IOException;
    }

    private static final int BACKLOG = 64;

    private final PeerServerConfig config;
    private final String tool;
    private final Logger log;
    /** Replaced by {@link #tcpReceiveBuffer}; guarded by {@link #tcpLock} where it is changed or closed. */
    private volatile ServerSocketChannel tcp;
    private final Object tcpLock = new Object();
    private int tcpBuffer;
    /** Counted down by the accept thread once a replaced socket's accept has returned, which releases the port. */
    private volatile CountDownLatch acceptLeft = new CountDownLatch(0);
    private final DatagramChannel udp;
    private final int port;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong refused = new AtomicLong();
    private Thread acceptor;
    private Thread udpLoop;

    private SamePortListener(PeerServerConfig config, String tool, Logger log, ServerSocketChannel tcp,
                             DatagramChannel udp, int port) {
        this.config = config;
        this.tool = tool;
        this.log = log;
        this.tcp = tcp;
        this.udp = udp;
        this.port = port;
    }

    /**
     * Binds the TCP port ({@code SO_REUSEADDR}) at {@code config}'s address and port, then the UDP
     * port of the number the TCP port got (the kernel's choice for port 0).
     *
     * @param config the address, port and clients served
     * @param tool the tool whose clients are served, named in errors and logs, e.g. {@code iperf3}
     * @param udpSetup options the server's UDP loop needs, set before the UDP port is bound
     * @param log the server's logger
     * @return the bound ports; nothing is accepted before {@link #start}
     * @throws IOException when either port cannot be bound or set up; the message names the tool,
     *     the address and the port, and neither port stays open
     */
    public static SamePortListener open(PeerServerConfig config, String tool, UdpSetup udpSetup, Logger log)
            throws IOException {
        ServerSocketChannel t = ServerSocketChannel.open();
        DatagramChannel u = null;
        try {
            t.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            t.bind(new InetSocketAddress(config.bind(), config.port()), BACKLOG);
            int p = ((InetSocketAddress) t.getLocalAddress()).getPort();
            u = DatagramChannel.open(config.bind() instanceof Inet6Address
                    ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            udpSetup.apply(u);
            u.bind(new InetSocketAddress(config.bind(), p));
            return new SamePortListener(config, tool, log, t, u, p);
        } catch (IOException e) {
            t.close();
            if (u != null) {
                u.close();
            }
            throw new IOException("cannot listen for " + tool + " clients on " + config.bind().getHostAddress() + " port "
                    + config.port() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts the accept thread ({@code <threadStem>-accept}) and {@code udpLoop} on its own
     * ({@code <threadStem>-udp}), both daemons, and logs that the server listens.
     *
     * @param threadStem the threads' name before {@code -accept} and {@code -udp}
     * @param accepted what the server does with an allowed connection
     * @param udpLoop the server's UDP loop; it should return once {@link #isClosed()}
     * @throws IllegalStateException when already started
     */
    public synchronized void start(String threadStem, Accepted accepted, Runnable udpLoop) {
        if (acceptor != null) {
            throw new IllegalStateException(tool + " server already started");
        }
        acceptor = new Thread(() -> acceptLoop(accepted), threadStem + "-accept");
        acceptor.setDaemon(true);
        this.udpLoop = new Thread(udpLoop, threadStem + "-udp");
        this.udpLoop.setDaemon(true);
        acceptor.start();
        this.udpLoop.start();
        log.info("{} server listening on {} port {} (TCP and UDP), clients from {}, at most {} tests at once",
                tool, config.bind().getHostAddress(), port, config.allowFrom(), config.limits().maxSessions());
    }

    private void acceptLoop(Accepted accepted) {
        while (!closed.get()) {
            SocketChannel s;
            try {
                s = tcp.accept();
            } catch (ClosedChannelException e) {
                acceptLeft.countDown();
                synchronized (tcpLock) {
                    if (closed.get() || tcp.isOpen()) {
                        continue; // rebound by tcpReceiveBuffer, or closed: the loop's test tells
                    }
                    return;
                }
            } catch (IOException e) {
                if (closed.get()) {
                    return;
                }
                log.warn("accept failed: {}", e.getMessage());
                continue;
            }
            InetSocketAddress from;
            try {
                from = (InetSocketAddress) s.getRemoteAddress();
            } catch (IOException e) {
                closeQuietly(s);
                continue;
            }
            if (!config.allowFrom().allows(from.getAddress())) {
                refused.incrementAndGet();
                log.warn("refused {}: not in --allow-from {}; closed before reading", from, config.allowFrom());
                closeQuietly(s);
                continue;
            }
            accepted.accept(s, from);
        }
    }

    /** @return the UDP port, bound; the server's UDP loop reads and writes it */
    public DatagramChannel udp() {
        return udp;
    }

    /** @return the address served, with the port the kernel chose for port 0 */
    public InetSocketAddress address() {
        return new InetSocketAddress(config.bind(), port);
    }

    /** @return whether {@link #closePorts()} was called */
    public boolean isClosed() {
        return closed.get();
    }

    /** Counts one refusal the server made itself (busy, over a limit). */
    public void refuse() {
        refused.incrementAndGet();
    }

    /** @return connections, clients and tests refused: not allowed, or counted by {@link #refuse()} */
    public long refusals() {
        return refused.get();
    }

    /**
     * Closes both ports; the accept loop ends, and the UDP loop should on {@link #isClosed()}.
     *
     * @return true the first time, false when already closed
     */
    public boolean closePorts() {
        if (!closed.compareAndSet(false, true)) {
            return false;
        }
        synchronized (tcpLock) {
            closeQuietly(tcp);
        }
        closeQuietly(udp);
        return true;
    }

    /**
     * Waits for the accept thread, then the UDP thread, each at most {@code millis}.
     *
     * @throws InterruptedException when interrupted while waiting
     */
    public void join(long millis) throws InterruptedException {
        Thread a;
        Thread u;
        synchronized (this) {
            a = acceptor;
            u = udpLoop;
        }
        if (a != null) {
            a.join(millis);
        }
        if (u != null) {
            u.join(millis);
        }
    }

    /**
     * Binds the TCP port again with a receive buffer of {@code bytes}, or the system's autotuned
     * default for 0, as iperf3's server listens anew with a test's window: a connection accepted
     * from then on inherits the buffer and the TCP window scale negotiated for it, which setting
     * the buffer after the accept cannot change. The old socket is closed first, so a connection
     * arriving in those microseconds is refused or reset; the port number stays the same.
     *
     * @param bytes the receive buffer, bytes; 0 = the default
     * @throws IOException when the port cannot be bound again: the ports are then closed, as by
     *     {@link #closePorts()}, and the message names the address and port
     */
    public void tcpReceiveBuffer(int bytes) throws IOException {
        synchronized (tcpLock) {
            if (closed.get() || bytes == tcpBuffer) {
                return;
            }
            CountDownLatch left = new CountDownLatch(1);
            acceptLeft = left;
            closeQuietly(tcp);
            ServerSocketChannel n = ServerSocketChannel.open();
            try {
                // a socket closed while a thread blocks in its accept is released when that accept returns
                if (!left.await(1, TimeUnit.SECONDS)) {
                    log.debug("the accept thread did not leave the old socket within 1 s; binding anyway");
                }
                n.setOption(StandardSocketOptions.SO_REUSEADDR, true);
                if (bytes > 0) {
                    n.setOption(StandardSocketOptions.SO_RCVBUF, bytes);
                }
                n.bind(new InetSocketAddress(config.bind(), port), BACKLOG);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closeQuietly(n);
                closePorts();
                throw new IOException("interrupted while listening for " + tool + " clients again; stopped", e);
            } catch (IOException e) {
                closeQuietly(n);
                closePorts();
                throw new IOException("cannot listen for " + tool + " clients on " + config.bind().getHostAddress()
                        + " port " + port + " again: " + e.getMessage(), e);
            }
            tcp = n;
            tcpBuffer = bytes;
        }
    }

    /** Closes {@code c}, ignoring a failure: used where nothing is left to do about one. */
    public static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException ignored) {
            // closing: nothing left to do
        }
    }
}
