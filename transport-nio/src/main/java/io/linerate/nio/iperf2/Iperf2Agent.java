package io.linerate.nio.iperf2;

import io.linerate.nio.peer.SamePortListener;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * linerate as a server for unmodified iperf 2 clients ({@code iperf -c}, {@code iperf -c -u}) and
 * zperf: a TCP port and a UDP port of the same number. A TCP test is the bytes of one connection,
 * read to its end. A UDP test is the datagrams from one client address and port; its layout
 * ({@link Iperf2HeaderVariant}) is told from its first datagram, and the final datagram (negative
 * id) is answered with the server report, again for every re-sent final. Tests run at once up to
 * {@code --max-sessions} (TCP and UDP together); beyond, a TCP connection is closed unread and a
 * UDP client's datagrams are ignored.
 *
 * <p>A client outside {@link Iperf2ServerConfig#allowFrom()} is closed, or its datagrams dropped,
 * before anything is read. A test silent for the I/O timeout, longer than {@code --max-duration},
 * faster on average than {@code --max-rate} (after its first second) or with datagrams above
 * {@code --max-payload} is ended. The UDP path allocates nothing per datagram; each test's socket
 * and thread are released when it ends, on every path.
 */
public final class Iperf2Agent implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Iperf2Agent.class);
    private static final long TICK_MILLIS = 50;

    private final Iperf2ServerConfig config;
    private final SamePortListener ports;
    private final DatagramChannel udp;
    private final AtomicInteger active = new AtomicInteger();
    private final List<SocketChannel> tcpOpen = new CopyOnWriteArrayList<>();
    private final List<Thread> tcpThreads = new CopyOnWriteArrayList<>();
    private final List<Iperf2ServedTest> completed = new CopyOnWriteArrayList<>();

    private Iperf2Agent(Iperf2ServerConfig config, SamePortListener ports) {
        this.config = config;
        this.ports = ports;
        this.udp = ports.udp();
    }

    /**
     * Binds the TCP port and the UDP port of the same number, and starts serving.
     *
     * @throws IOException when either cannot be bound; the message names address and port
     */
    public static Iperf2Agent start(Iperf2ServerConfig config) throws IOException {
        SamePortListener ports = SamePortListener.open(config, "iperf 2", u -> u.configureBlocking(false), LOG);
        Iperf2Agent a = new Iperf2Agent(config, ports);
        ports.start("linerate-iperf2", a::admit, a::udpLoop);
        return a;
    }

    /** @return the address served, with the port the kernel chose for port 0 */
    public InetSocketAddress address() {
        return ports.address();
    }

    /** @return tests running now */
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

    private boolean claim() {
        if (active.incrementAndGet() > config.limits().maxSessions()) {
            active.decrementAndGet();
            ports.refuse();
            return false;
        }
        return true;
    }

    /** An allowed connection: read on a thread of its own, if a test may start. */
    private void admit(SocketChannel s, InetSocketAddress from) {
        if (!claim()) {
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
        String end = "done";
        try (TcpChannel ch = TcpChannel.accepted(s)) {
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.min(1 << 20, Math.max(65536, config.limits().maxPayloadBytes())));
            long start = System.nanoTime();
            long last = start;
            long timeout = config.ioTimeout().toNanos();
            long maxNanos = config.limits().maxDuration().toNanos();
            long maxRate = config.limits().maxRateBitsPerSecond();
            while (true) {
                buf.clear();
                int n = ch.readSome(buf, TICK_MILLIS);
                long now = System.nanoTime();
                if (n < 0) {
                    break;
                }
                if (n > 0) {
                    if (bytes < 4 && bytes + n >= 4) {
                        for (int i = (int) bytes; i < 4; i++) {
                            flags = (flags << 8) | (buf.get(i - (int) bytes) & 0xff);
                        }
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
            active.decrementAndGet();
        }
        record(new Iperf2ServedTest(from, false, Optional.empty(), flags, bytes, Optional.empty(), end));
    }

    private void record(Iperf2ServedTest t) {
        completed.add(t);
        LOG.info("iperf 2 {} test from {}: {} bytes{}, {}", t.udp() ? "UDP" : "TCP", t.client(), t.bytes(),
                t.header().map(h -> ", header " + h.cliName() + " (" + h.description() + ")")
                        .orElse(t.udp() ? "" : String.format(", client header flags 0x%08x", t.tcpFlags())), t.end());
    }

    private void udpLoop() {
        ByteBuffer buf = ByteBuffer.allocateDirect(65536);
        ByteBuffer reply = ByteBuffer.allocateDirect(256);
        Map<SocketAddress, Iperf2UdpSession> sessions = new HashMap<>();
        Map<SocketAddress, Iperf2UdpSession> finished = new HashMap<>();
        Map<SocketAddress, Long> finishedAt = new HashMap<>();
        long epochBase = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        long timeout = config.ioTimeout().toNanos();
        long lastSweep = System.nanoTime();
        SocketAddress lastAllowed = null;
        try (Selector sel = Selector.open()) {
            udp.register(sel, SelectionKey.OP_READ);
            while (!ports.isClosed()) {
                buf.clear();
                SocketAddress src = udp.receive(buf);
                long now = System.nanoTime();
                if (now - lastSweep > TICK_MILLIS * 1_000_000L) {
                    lastSweep = now;
                    sweep(sessions, finished, finishedAt, now, timeout);
                }
                if (src == null) {
                    sel.selectedKeys().clear();
                    sel.select(TICK_MILLIS);
                    continue;
                }
                buf.flip();
                if (!src.equals(lastAllowed)) {
                    if (!(src instanceof InetSocketAddress isa) || !config.allowFrom().allows(isa.getAddress())) {
                        continue; // not allowed: dropped unread
                    }
                    lastAllowed = src;
                }
                if (buf.limit() < Iperf2HeaderVariant.LEGACY.headerBytes()) {
                    continue;
                }
                Iperf2UdpSession s = sessions.get(src);
                if (s == null) {
                    Iperf2UdpSession done = finished.get(src);
                    if (done != null) {
                        long id = Iperf2Datagram.id(buf, done.header);
                        if (id < 0) { // a re-sent final: the report again
                            if (!done.cut) {
                                sendReport(done, id, reply, src);
                            }
                            continue;
                        }
                        if (done.cut) {
                            continue; // ended for a limit: ignored until it falls silent
                        }
                        finished.remove(src); // a new test from the same address and port
                        finishedAt.remove(src);
                    }
                    if (buf.limit() > config.limits().maxPayloadBytes() || !claim()) {
                        continue; // busy or over the payload limit: the client gets no report
                    }
                    s = new Iperf2UdpSession((InetSocketAddress) src, Iperf2HeaderVariant.detect(buf), now);
                    sessions.put(src, s);
                }
                if (s.onDatagram(buf, now, epochBase + now)) {
                    long id = Iperf2Datagram.id(buf, s.header);
                    Iperf2ServerReport r = sendReport(s, id, reply, src);
                    sessions.remove(src);
                    active.decrementAndGet();
                    finished.put(src, s);
                    finishedAt.put(src, now);
                    record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.of(r), "done"));
                }
            }
        } catch (ClosedChannelException e) {
            // closing
        } catch (IOException | RuntimeException e) {
            if (!ports.isClosed()) {
                LOG.warn("the UDP port failed: {}", e.getMessage());
            }
        } finally {
            for (Iperf2UdpSession s : sessions.values()) {
                active.decrementAndGet();
                record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.empty(), "server stopped"));
            }
        }
    }

    private Iperf2ServerReport sendReport(Iperf2UdpSession s, long finalId, ByteBuffer reply, SocketAddress to) {
        Iperf2ServerReport r = s.report(finalId);
        r.write(reply, s.header);
        try {
            udp.send(reply, to);
        } catch (IOException e) {
            LOG.debug("report to {} failed: {}", to, e.getMessage());
        }
        return r;
    }

    private void sweep(Map<SocketAddress, Iperf2UdpSession> sessions, Map<SocketAddress, Iperf2UdpSession> finished,
                       Map<SocketAddress, Long> finishedAt, long now, long timeout) {
        long maxNanos = config.limits().maxDuration().toNanos();
        long maxRate = config.limits().maxRateBitsPerSecond();
        List<SocketAddress> ended = new ArrayList<>();
        for (Map.Entry<SocketAddress, Iperf2UdpSession> e : sessions.entrySet()) {
            Iperf2UdpSession s = e.getValue();
            long age = now - s.firstNanos;
            String why = now - s.lastNanos > timeout ? "silent for the I/O timeout of " + config.ioTimeout().toMillis()
                    + " ms before a final datagram"
                    : age > maxNanos ? "longer than --max-duration " + config.limits().maxDuration().toMillis() + " ms"
                    : maxRate > 0 && age > 1_000_000_000L && s.bytes * 8e9 / age > maxRate ? "faster than --max-rate " + maxRate
                    + " bit/s" : null;
            if (why != null) {
                ended.add(e.getKey());
                s.cut = true;
                active.decrementAndGet();
                record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.empty(), why));
                // its further datagrams are ignored until the client falls silent
                finished.put(e.getKey(), s);
                finishedAt.put(e.getKey(), now);
            }
        }
        ended.forEach(sessions::remove);
        for (Iterator<Map.Entry<SocketAddress, Long>> it = finishedAt.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<SocketAddress, Long> e = it.next();
            if (now - e.getValue() > timeout) {
                it.remove();
                finished.remove(e.getKey());
            }
        }
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
