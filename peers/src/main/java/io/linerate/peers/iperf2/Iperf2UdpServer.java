package io.linerate.peers.iperf2;

import io.linerate.core.spi.DatagramWait;
import io.linerate.peers.internal.SamePortListener;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The UDP port of linerate's iperf 2 server, one loop on one thread. A test is the datagrams from
 * one client address and port; it starts with a data datagram (id 0 or more) and ends at its final
 * datagram (negative id), which is answered with the report, again for every re-sent final. The
 * report is fixed by the first final datagram: re-sent finals (iperf 2 gives each a higher id) and
 * duplicated or late data datagrams of an ended test change nothing and start no new test.
 *
 * <p>A client is refused, logged once and counted once, when the server already runs
 * {@code --max-sessions} tests or its datagram exceeds {@code --max-payload}; its datagrams, its
 * final one included, are then ignored (no report) until it falls silent for the I/O timeout. A
 * final datagram from a client with no test here is ignored too: there is nothing to report. At most
 * {@link #MAX_REMEMBERED} ended or refused clients are remembered at once. Nothing is allocated per
 * datagram: each test's interval lines are read from its counts on the sweep, every
 * {@value #TICK_MILLIS} ms.
 */
final class Iperf2UdpServer {
    /** Logs read as the server's. */
    private static final Logger LOG = LoggerFactory.getLogger(Iperf2Agent.class);
    /** Ended and refused clients remembered at once; beyond, a refused client is refused again for each datagram, unlogged. */
    static final int MAX_REMEMBERED = 4096;
    private static final long TICK_MILLIS = 50;

    /** A client whose test ended or that was refused, until it falls silent for the I/O timeout. */
    private static final class Ended {
        /** Its test, answered: a re-sent final gets the report again. Null when cut short or refused: all ignored. */
        final Iperf2UdpSession done;
        long seenNanos;

        Ended(Iperf2UdpSession done, long seenNanos) {
            this.done = done;
            this.seenNanos = seenNanos;
        }
    }

    private final Iperf2Agent agent;
    private final Iperf2ServerConfig config;
    private final SamePortListener ports;
    private final DatagramChannel udp;
    private final ByteBuffer reply = ByteBuffer.allocateDirect(256);
    private final Map<SocketAddress, Iperf2UdpSession> sessions = new HashMap<>();
    private final Map<SocketAddress, Ended> ended = new HashMap<>();
    private final long timeout;
    private long epochBase;
    private boolean full;

    Iperf2UdpServer(Iperf2Agent agent, Iperf2ServerConfig config, SamePortListener ports) {
        this.agent = agent;
        this.config = config;
        this.ports = ports;
        this.udp = ports.udp();
        this.timeout = config.ioTimeout().toNanos();
    }

    /** The loop: runs until the port is closed; tests still running then are recorded as stopped. */
    void run() {
        ByteBuffer buf = ByteBuffer.allocateDirect(65536);
        epochBase = System.currentTimeMillis() * 1_000_000L - System.nanoTime();
        long lastSweep = System.nanoTime();
        SocketAddress lastAllowed = null;
        try (Selector sel = Selector.open()) {
            udp.register(sel, SelectionKey.OP_READ);
            DatagramWait wait = new DatagramWait(sel);
            while (!ports.isClosed()) {
                buf.clear();
                SocketAddress src = udp.receive(buf);
                long now = System.nanoTime();
                if (now - lastSweep > TICK_MILLIS * 1_000_000L) {
                    lastSweep = now;
                    sweep(now);
                }
                if (src == null) {
                    wait.await(TICK_MILLIS);
                    continue;
                }
                wait.read();
                buf.flip();
                if (!src.equals(lastAllowed)) {
                    if (!(src instanceof InetSocketAddress isa) || !config.allowFrom().allows(isa.getAddress())) {
                        continue; // not allowed: dropped unread
                    }
                    lastAllowed = src;
                }
                if (buf.limit() >= Iperf2HeaderVariant.LEGACY.headerBytes()) {
                    onDatagram(src, buf, now);
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
                agent.release();
                s.end(System.nanoTime(), "the server stopped");
                agent.record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.empty(),
                        "server stopped"));
            }
            sessions.clear();
        }
    }

    private void onDatagram(SocketAddress src, ByteBuffer buf, long now) {
        Iperf2UdpSession s = sessions.get(src);
        if (s == null) {
            Ended e = ended.get(src);
            if (e != null) {
                e.seenNanos = now;
                if (e.done == null) {
                    return; // cut short or refused: ignored until it falls silent
                }
                if (Iperf2Datagram.id(buf, e.done.header) < 0) { // a re-sent final: the same report again
                    sendReport(e.done, src);
                    return;
                }
                if (e.done.sentBeforeFinal(buf)) {
                    return; // a duplicate or late data datagram of the ended test: counted already, or lost by then
                }
                ended.remove(src); // a new test from the same address and port
            }
            s = start(src, buf, now);
            if (s == null) {
                return;
            }
        }
        if (s.onDatagram(buf, now, epochBase + now)) {
            sessions.remove(src);
            agent.release();
            ended.put(src, new Ended(s, now));
            // recorded before the report goes: a client that has its report finds the test in completed()
            agent.record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.of(s.report()), "done"));
            sendReport(s, src);
            s.end(now, ServedSummary.DONE);
        }
    }

    /** @return the test a client's first datagram starts, or null when it starts none (a final datagram, or refused) */
    private Iperf2UdpSession start(SocketAddress src, ByteBuffer buf, long now) {
        Iperf2HeaderVariant v = Iperf2HeaderVariant.detect(buf);
        if (Iperf2Datagram.id(buf, v) < 0) {
            return null; // a final datagram of no test served here: nothing to report
        }
        if (buf.limit() > config.limits().maxPayloadBytes()) {
            refuse(src, now, "its datagram of " + buf.limit() + " bytes exceeds --max-payload " + config.limits().maxPayloadBytes());
            return null;
        }
        if (!agent.claim()) {
            refuse(src, now, "the server runs at most " + config.limits().maxSessions() + " tests at once (--max-sessions)");
            return null;
        }
        String reverse = Iperf2Datagram.reverseTestRequest(Iperf2Datagram.clientFlags(buf, v),
                Iperf2Datagram.clientUpperFlags(buf, v));
        if (reverse != null) {
            LOG.warn("UDP client {} asked for iperf's {}, which linerate's iperf 2 server does not run: it serves the "
                    + "client's test to it only, and the client will wait in vain for the server's connection back", src, reverse);
        }
        Iperf2UdpSession s = new Iperf2UdpSession((InetSocketAddress) src, v, now, agent.nextTest(), agent.listener());
        agent.listener().onStart(new ServedStart(s.test, s.client, "iperf 2 UDP, header " + v.cliName()));
        sessions.put(src, s);
        return s;
    }

    /** Counts a refusal and remembers the client, so that its further datagrams are ignored and it is logged once. */
    private void refuse(SocketAddress src, long now, String why) {
        agent.countRefusal();
        if (ended.size() < MAX_REMEMBERED) {
            ended.put(src, new Ended(null, now));
            LOG.warn("refused UDP client {}: {}; its datagrams are ignored and it gets no report", src, why);
        } else if (!full) {
            full = true;
            LOG.warn("{} UDP clients ended or were refused within the I/O timeout: further refused clients are not logged",
                    MAX_REMEMBERED);
        }
    }

    private void sendReport(Iperf2UdpSession s, SocketAddress to) {
        s.report().write(reply, s.header);
        try {
            udp.send(reply, to);
        } catch (IOException e) {
            LOG.debug("report to {} failed: {}", to, e.getMessage());
        }
    }

    /** Ends tests over a limit or silent, and forgets clients silent for the I/O timeout. */
    private void sweep(long now) {
        long maxNanos = config.limits().maxDuration().toNanos();
        long maxRate = config.limits().maxRateBitsPerSecond();
        List<SocketAddress> cut = new ArrayList<>();
        for (Map.Entry<SocketAddress, Iperf2UdpSession> e : sessions.entrySet()) {
            Iperf2UdpSession s = e.getValue();
            s.tick(now);
            long age = now - s.firstNanos;
            String why = now - s.lastNanos > timeout ? "silent for the I/O timeout of " + config.ioTimeout().toMillis()
                    + " ms before a final datagram"
                    : age > maxNanos ? "longer than --max-duration " + config.limits().maxDuration().toMillis() + " ms"
                    : maxRate > 0 && age > 1_000_000_000L && s.bytes * 8e9 / age > maxRate ? "faster than --max-rate " + maxRate
                    + " bit/s" : null;
            if (why != null) {
                cut.add(e.getKey());
                agent.release();
                agent.record(new Iperf2ServedTest(s.client, true, Optional.of(s.header), 0, s.bytes, Optional.empty(), why));
                s.end(now, why);
                ended.put(e.getKey(), new Ended(null, now)); // its further datagrams are ignored until it falls silent
            }
        }
        cut.forEach(sessions::remove);
        for (Iterator<Ended> it = ended.values().iterator(); it.hasNext(); ) {
            if (now - it.next().seenNanos > timeout) {
                it.remove();
            }
        }
        if (ended.size() < MAX_REMEMBERED) {
            full = false;
        }
    }
}
