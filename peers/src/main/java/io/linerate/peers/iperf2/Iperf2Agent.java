package io.linerate.peers.iperf2;

import io.linerate.peers.internal.SamePortListener;
import io.linerate.peers.internal.ServedIntervals;
import io.linerate.peers.server.PeerServer;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * linerate as a server for unmodified iperf 2 clients ({@code iperf -c}, {@code iperf -c -u}) and
 * zperf: a TCP port and a UDP port of the same number. A TCP test is the bytes of one connection,
 * read to its end. A UDP test is the datagrams from one client address and port; its layout
 * ({@link Iperf2HeaderVariant}) is told from its first datagram, and the final datagram (negative
 * id) is answered with the server report, again for every re-sent final ({@link Iperf2UdpServer}).
 * Tests run at once up to {@code --max-sessions} (TCP and UDP together); beyond, a TCP connection is
 * closed unread and a UDP client's datagrams are ignored: it gets no report. Each refusal is logged
 * once (WARN). A client that asks for iperf's dual ({@code -d}) or tradeoff ({@code -r}) test is
 * served its own test only and logged once (WARN): linerate does not connect back.
 *
 * <p>A client outside {@link Iperf2ServerConfig#allowFrom()} is closed, or its datagrams dropped,
 * before anything is read. A test silent for the I/O timeout, longer than {@code --max-duration},
 * faster on average than {@code --max-rate} (after its first second) or with datagrams above
 * {@code --max-payload} is ended. The UDP path allocates nothing per datagram; each test's socket
 * and thread are released when it ends, on every path. Each test reports its start, an interval
 * line a second and its summary to the listener the server was started with: a TCP test's read
 * loop at each boundary, a UDP test's on the UDP loop's sweep, never per datagram.
 */
public final class Iperf2Agent implements PeerServer {
    private static final Logger LOG = LoggerFactory.getLogger(Iperf2Agent.class);
    private static final long TICK_MILLIS = 50;

    private final Iperf2ServerConfig config;
    private final SamePortListener ports;
    private final AtomicInteger active = new AtomicInteger();
    private final List<SocketChannel> tcpOpen = new CopyOnWriteArrayList<>();
    private final List<Thread> tcpThreads = new CopyOnWriteArrayList<>();
    private final List<Iperf2ServedTest> completed = new CopyOnWriteArrayList<>();
    private final AtomicLong started = new AtomicLong();
    private final ServedTestListener listener;

    private Iperf2Agent(Iperf2ServerConfig config, SamePortListener ports, ServedTestListener listener) {
        this.config = config;
        this.ports = ports;
        this.listener = listener;
    }

    /**
     * Binds the TCP port and the UDP port of the same number, and starts serving; nothing is told
     * of the tests served but the log and {@link #completed()}.
     *
     * @throws IOException when either cannot be bound; the message names address and port
     */
    public static Iperf2Agent start(Iperf2ServerConfig config) throws IOException {
        return start(config, ServedTestListener.NONE);
    }

    /**
     * Binds the TCP port and the UDP port of the same number, and starts serving.
     *
     * @param listener receives each test's start, its interval lines (every second: an iperf 2
     *     client does not send its {@code -i}) and its summary; a UDP test's summary holds the
     *     counts of the report sent back
     * @throws IOException when either cannot be bound; the message names address and port
     */
    public static Iperf2Agent start(Iperf2ServerConfig config, ServedTestListener listener) throws IOException {
        SamePortListener ports = SamePortListener.open(config, "iperf 2", u -> u.configureBlocking(false), LOG);
        Iperf2Agent a = new Iperf2Agent(config, ports, java.util.Objects.requireNonNull(listener, "listener"));
        Iperf2UdpServer u = new Iperf2UdpServer(a, config, ports);
        ports.start("linerate-iperf2", a::admit, u::run);
        return a;
    }

    /** @return the address served, with the port the kernel chose for port 0 */
    @Override
    public InetSocketAddress address() {
        return ports.address();
    }

    /** @return tests running now */
    @Override
    public int activeSessions() {
        return active.get();
    }

    /** @return connections and clients refused: not allowed, busy, over a limit */
    public long refusals() {
        return ports.refusals();
    }

    /** @return the tests that ended, oldest first */
    public List<Iperf2ServedTest> completed() {
        return List.copyOf(completed);
    }

    /** @return the next test's number, from 1 */
    long nextTest() {
        return started.incrementAndGet();
    }

    ServedTestListener listener() {
        return listener;
    }

    /** @return whether a test may start (then it counts as running until {@link #release()}); false at --max-sessions */
    boolean claim() {
        if (active.incrementAndGet() > config.limits().maxSessions()) {
            active.decrementAndGet();
            return false;
        }
        return true;
    }

    /** A test {@link #claim() claimed} ended. */
    void release() {
        active.decrementAndGet();
    }

    /** Counts a connection or client refused. */
    void countRefusal() {
        ports.refuse();
    }

    /** An allowed connection: read on a thread of its own, if a test may start. */
    private void admit(SocketChannel s, InetSocketAddress from) {
        if (!claim()) {
            countRefusal();
            LOG.warn("refused {}: the server runs at most {} tests at once (--max-sessions); closed before reading",
                    from, config.limits().maxSessions());
            SamePortListener.closeQuietly(s);
            return;
        }
        tcpOpen.add(s);
        Thread t = new Thread(() -> serveTcp(s, from), "linerate-iperf2-tcp");
        t.setDaemon(true);
        tcpThreads.add(t);
        t.start();
    }

    private void serveTcp(SocketChannel s, InetSocketAddress from) {
        long bytes = 0;
        int flags = 0;
        String end = ServedSummary.DONE;
        long test = nextTest();
        long start = System.nanoTime();
        long last = start;
        ServedIntervals lines = new ServedIntervals(listener, test, 0, false, false, start, ServedIntervals.DEFAULT_INTERVAL,
                start);
        listener.onStart(new ServedStart(test, from, "iperf 2 TCP"));
        try (TcpChannel ch = TcpChannel.accepted(s)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.min(1 << 20, Math.max(65536, config.limits().maxPayloadBytes())));
            long timeout = config.ioTimeout().toNanos();
            long maxNanos = config.limits().maxDuration().toNanos();
            long maxRate = config.limits().maxRateBitsPerSecond();
            while (true) {
                buf.clear();
                int n = ch.readSome(buf, TICK_MILLIS);
                long now = System.nanoTime();
                // at a boundary only: one comparison per read otherwise
                lines.tick(now, bytes, 0, 0, Double.NaN);
                if (n < 0) {
                    break;
                }
                if (n > 0) {
                    if (bytes < 4 && bytes + n >= 4) {
                        for (int i = (int) bytes; i < 4; i++) {
                            flags = (flags << 8) | (buf.get(i - (int) bytes) & 0xff);
                        }
                        // a client header comes in one segment: its extension is in this first read
                        warnReverseTest(flags, bytes == 0 ? Iperf2Datagram.upperFlags(buf.flip(), 0, flags) : 0, from);
                    }
                    bytes += n;
                    last = now;
                } else if (now - last > timeout) {
                    end = "silent for the I/O timeout of " + config.ioTimeout().toMillis() + " ms";
                    break;
                }
                if (now - start > maxNanos) {
                    end = "longer than --max-duration " + config.limits().maxDuration().toMillis() + " ms; closed";
                    break;
                }
                if (maxRate > 0 && now - start > 1_000_000_000L && bytes * 8e9 / (now - start) > maxRate) {
                    end = "faster than --max-rate " + maxRate + " bit/s; closed";
                    break;
                }
            }
        } catch (IOException | RuntimeException e) {
            end = "failed: " + e.getMessage();
        } finally {
            tcpOpen.remove(s);
            tcpThreads.remove(Thread.currentThread());
            release();
        }
        lines.finish(Math.max(start, last), bytes, 0, 0, Double.NaN);
        listener.onEnd(new ServedSummary(test, false, false, last - start, bytes, 0, 0, OptionalDouble.empty(), end));
        record(new Iperf2ServedTest(from, false, Optional.empty(), flags, bytes, Optional.empty(), end));
    }

    private static void warnReverseTest(int flags, int upperFlags, InetSocketAddress from) {
        String reverse = Iperf2Datagram.reverseTestRequest(flags, upperFlags);
        if (reverse != null) {
            LOG.warn("TCP client {} asked for iperf's {}, which linerate's iperf 2 server does not run: it serves the "
                    + "client's test to it only, and the client will wait in vain for the server's connection back", from, reverse);
        }
    }

    void record(Iperf2ServedTest t) {
        completed.add(t);
        LOG.info("iperf 2 {} test from {}: {} bytes{}, {}", t.udp() ? "UDP" : "TCP", t.client(), t.bytes(),
                t.header().map(h -> ", header " + h.cliName() + " (" + h.description() + ")")
                        .orElse(t.udp() ? "" : String.format(", client header flags 0x%08x", t.tcpFlags())), t.end());
    }

    /** Stops serving: closes both ports and every TCP test's connection, and waits for their threads (bounded). */
    @Override
    public void close() {
        if (!ports.closePorts()) {
            return;
        }
        for (SocketChannel s : tcpOpen) {
            SamePortListener.closeQuietly(s);
        }
        long wait = config.ioTimeout().toMillis();
        try {
            ports.join(wait);
            for (Thread t : tcpThreads) {
                t.join(wait);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("iperf 2 server stopped after {} tests ({} refusals)", completed.size(), ports.refusals());
    }
}
