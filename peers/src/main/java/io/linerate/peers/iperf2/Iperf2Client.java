package io.linerate.peers.iperf2;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.PacingWait;
import io.linerate.core.PeerDirection;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.Pacer;
import io.linerate.peers.internal.IntervalTicker;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.Objects;
import java.util.Optional;

/**
 * linerate as a client of an unmodified iperf 2 server ({@code iperf -s}, {@code iperf -s -u}),
 * forward only: linerate sends, the server receives. iperf 2 negotiates nothing. TCP: linerate
 * connects and writes zero-filled payload (the first word, iperf 2's client-header flags, is 0,
 * so the server expects nothing more), shuts its side down at the bound and waits for the
 * server's close. UDP: every datagram carries iperf 2's header in the chosen
 * {@link Iperf2HeaderVariant} and a client header; at the bound linerate sends the final
 * datagram (negated id) and re-sends it, every 250 ms as iperf 2 does, until the server's report
 * ({@link Iperf2ServerReport}) arrives, at most 10 times and never past the I/O timeout.
 *
 * <p>The spec's bound is a duration, bytes or messages; its rate paces the sender; its warm-up
 * is not used (the server counts the whole test). Every connect, write and wait is bounded by the
 * spec's I/O timeout, and the socket is closed on every path. The per-datagram path allocates
 * nothing. An interrupt of the calling thread ends the sending as the bound does (TCP: the shutdown
 * and the wait for the server's close; UDP: the final datagram and the report, within the I/O
 * timeout), and the result, of what was sent until then, is {@link Iperf2Result#interrupted()}.
 */
public final class Iperf2Client {
    /** Tries of the final datagram, iperf 2's. */
    static final int FINAL_TRIES = 10;
    /** Wait for the report after each try, ms (iperf 2's). */
    static final long FINAL_WAIT_MILLIS = 250;

    private Iperf2Client() {}

    /**
     * Runs one test against an iperf 2 server.
     *
     * @param host the server's host name or address
     * @param port its port, 1..65535 (iperf 2's default is 5001)
     * @param spec protocol, family, payload, bound, rate, socket options, I/O timeout
     * @param header the UDP header layout to send (ignored for TCP); Debian's iperf 2 expects {@link Iperf2HeaderVariant#SEQ64}
     * @return linerate's counts and, for UDP, the server's report
     * @throws Iperf2Exception when the server cannot be reached, or stops taking data or goes away mid-test (the
     *     message then ends with what linerate had sent: "(partial: linerate had sent B bytes in N writes|datagrams)")
     * @throws IllegalArgumentException when the port is out of range or a UDP payload cannot hold the headers
     */
    public static Iperf2Result run(String host, int port, TransferSpec spec, Iperf2HeaderVariant header) throws Iperf2Exception {
        return run(host, port, spec, header, IntervalListener.NONE);
    }

    /**
     * Runs one test against an iperf 2 server, as {@link #run(String, int, TransferSpec, Iperf2HeaderVariant)}
     * does, passing linerate's own count of every spec interval (bytes, and UDP datagrams, sent) to
     * {@code listener} as stream 0 {@link PeerDirection#FORWARD}, on the calling thread, and a last
     * partial one when the sending ends. The send loop checks for a closed interval with one
     * comparison and allocates nothing per write or datagram.
     *
     * @param listener receives each interval's sample
     * @return linerate's counts and, for UDP, the server's report
     * @throws Iperf2Exception as the other {@code run}
     * @throws IllegalArgumentException when the port is out of range or a UDP payload cannot hold the headers
     */
    public static Iperf2Result run(String host, int port, TransferSpec spec, Iperf2HeaderVariant header,
                                   IntervalListener listener) throws Iperf2Exception {
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(header, "header");
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range; allowed: 1..65535");
        }
        int min = Iperf2Datagram.minBytes(header);
        if (spec.protocol() == Protocol.UDP && spec.payloadBytes() < min) {
            throw new IllegalArgumentException("payload " + spec.payloadBytes() + " bytes is out of range: iperf 2's " + header.cliName()
                    + " datagram and client headers take " + min + " bytes; allowed: " + min + " or more");
        }
        InetSocketAddress to = new InetSocketAddress(host, port);
        if (to.isUnresolved()) {
            throw new Iperf2Exception("cannot resolve the iperf 2 server's host '" + host + "'");
        }
        String server = host + ":" + port;
        try {
            return spec.protocol() == Protocol.UDP ? udp(to, server, spec, header, listener) : tcp(to, server, spec, listener);
        } catch (IOException e) {
            throw failure(server, e, "");
        }
    }

    /** @return the error for {@code e}, naming the server, with {@code partial} (what was sent before it) appended */
    private static Iperf2Exception failure(String server, IOException e, String partial) {
        String what = e instanceof PortUnreachableException
                ? "its UDP port refused datagrams (ICMP port unreachable): is `iperf -s -u` running?" : e.getMessage();
        return new Iperf2Exception("iperf 2 server " + server + ": " + what + partial, e);
    }

    /** @return " (partial: linerate had sent B bytes in N writes|datagrams)", for an error mid-test */
    private static String partial(long bytes, long count, String unit) {
        return " (partial: linerate had sent " + bytes + " bytes in " + count + " " + unit + ")";
    }

    private static long budgetBytes(TransferSpec spec) {
        Bound b = spec.bound();
        return switch (b.kind()) {
            case BYTES -> b.amount();
            case MESSAGES -> Math.multiplyExact(b.amount(), (long) spec.payloadBytes());
            default -> Long.MAX_VALUE;
        };
    }

    /** A sender's schedule: paced by the spec's rate from its start, ended by its duration, if it has one. */
    private static final class Schedule {
        final long start;
        final long end;
        private final Pacer pacer;
        private final PacingWait wait;

        Schedule(Clock clock, TransferSpec spec) {
            pacer = new Pacer(spec.rateBitsPerSecond());
            wait = PacingWait.of(clock, spec);
            start = clock.nanoTime();
            end = spec.bound().kind() == Bound.Kind.DURATION ? start + spec.bound().amount() : Long.MAX_VALUE;
            pacer.start(start);
        }

        /** @return whether a message of {@code next} bytes after {@code sent} may leave at {@code now}; else waits a step */
        boolean due(long sent, int next, long now) {
            long w = pacer.nanosUntilNext(sent + next, now);
            if (w > 0) {
                wait.step(now, w);
                return false;
            }
            return true;
        }
    }

    private static Iperf2Result tcp(InetSocketAddress to, String server, TransferSpec spec, IntervalListener listener)
            throws IOException, Iperf2Exception {
        Clock clock = Clock.system();
        long timeoutNanos = spec.ioTimeout().toNanos();
        long timeoutMillis = Math.max(1, spec.ioTimeout().toMillis());
        try (TcpChannel ch = TcpChannel.connect(to, spec.ioTimeout())) {
            ch.channel().setOption(StandardSocketOptions.TCP_NODELAY, spec.noDelay());
            if (spec.sendBufferBytes() > 0) {
                ch.channel().setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(spec.payloadBytes()); // zero-filled: client-header flags 0
            long budget = budgetBytes(spec);
            Schedule schedule = new Schedule(clock, spec);
            long start = schedule.start;
            IntervalTicker ticks = new IntervalTicker(start, spec.interval().toNanos());
            long bytes = 0;
            long writes = 0;
            long lastProgress = start;
            long sentNanos;
            boolean closed = false;
            boolean interrupted = false;
            try {
                while (bytes < budget) {
                    long now = clock.nanoTime();
                    if (ticks.due(now)) {
                        listener.onInterval(0, PeerDirection.FORWARD, ticks.tick(now, bytes, 0));
                    }
                    if (now >= schedule.end) {
                        break;
                    }
                    if (Thread.interrupted()) {
                        interrupted = true;
                        break;
                    }
                    if (!schedule.due(bytes, spec.payloadBytes(), now)) {
                        continue;
                    }
                    buf.clear().limit((int) Math.min(spec.payloadBytes(), budget - bytes));
                    while (buf.hasRemaining()) {
                        int n = ch.writeSome(buf, 10);
                        now = clock.nanoTime();
                        if (n > 0) {
                            bytes += n;
                            lastProgress = now;
                        } else if (now - lastProgress > timeoutNanos) {
                            throw new SocketTimeoutException("the server took no data for " + timeoutMillis + " ms (the I/O timeout)");
                        }
                    }
                    writes++;
                }
                sentNanos = clock.nanoTime() - start;
                last(listener, ticks, start + sentNanos, bytes, 0);
                ch.channel().shutdownOutput();
                // iperf 2's server reads to the end of the stream and then closes: its close means it has read all
                ByteBuffer sink = ByteBuffer.allocate(4096);
                long waitUntil = clock.nanoTime() + timeoutNanos;
                while (!closed && clock.nanoTime() < waitUntil) {
                    sink.clear();
                    closed = ch.readSome(sink, Math.max(1, (waitUntil - clock.nanoTime()) / 1_000_000)) < 0;
                }
            } catch (IOException e) {
                // the server went away or stopped taking data mid-test: say what had gone before
                throw failure(server, e, partial(bytes, writes, "writes"));
            }
            return new Iperf2Result(spec, server, null, new Iperf2Result.Local(bytes, writes, sentNanos), Optional.empty(),
                    closed ? "" : "the server did not close the connection within the I/O timeout after linerate's last byte",
                    interrupted);
        }
    }

    private static Iperf2Result udp(InetSocketAddress to, String server, TransferSpec spec, Iperf2HeaderVariant v,
                                    IntervalListener listener) throws IOException, Iperf2Exception {
        Clock clock = Clock.system();
        long timeoutNanos = spec.ioTimeout().toNanos();
        int payload = spec.payloadBytes();
        try (DatagramChannel ch = DatagramChannel.open(to.getAddress() instanceof java.net.Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
             Selector sel = Selector.open()) {
            ch.setOption(StandardSocketOptions.IP_TOS, spec.trafficClass());
            if (spec.sendBufferBytes() > 0) {
                ch.setOption(StandardSocketOptions.SO_SNDBUF, spec.sendBufferBytes());
            }
            ch.configureBlocking(false);
            ch.connect(to);
            ch.register(sel, SelectionKey.OP_READ);
            ByteBuffer buf = ByteBuffer.allocateDirect(Math.max(payload, 2048));
            Bound b = spec.bound();
            long seconds100 = b.kind() == Bound.Kind.DURATION ? (b.amount() + 9_999_999L) / 10_000_000L : 0;
            int amount = b.kind() == Bound.Kind.DURATION ? (int) -Math.min(Integer.MAX_VALUE, seconds100)
                    : (int) Math.min(Integer.MAX_VALUE, budgetBytes(spec));
            Iperf2Datagram.writeClientHeader(buf, v, to.getPort(), payload, spec.rateBitsPerSecond(), amount);
            long epochBase = System.currentTimeMillis() * 1000L - clock.nanoTime() / 1000L;
            long budget = budgetBytes(spec);
            Schedule schedule = new Schedule(clock, spec);
            long start = schedule.start;
            IntervalTicker ticks = new IntervalTicker(start, spec.interval().toNanos());
            long id = 1;
            long bytes = 0;
            long lastProgress = start;
            long sentNanos;
            boolean interrupted = false;
            Optional<Iperf2ServerReport> report;
            try {
                // the final datagram carries payload too, and the server counts it: leave room for it in a byte budget
                while (budget - bytes >= 2L * payload) {
                    long now = clock.nanoTime();
                    if (ticks.due(now)) {
                        listener.onInterval(0, PeerDirection.FORWARD, ticks.tick(now, bytes, id - 1));
                    }
                    if (now >= schedule.end) {
                        break;
                    }
                    if (Thread.interrupted()) {
                        interrupted = true;
                        break;
                    }
                    if (!schedule.due(bytes, payload, now)) {
                        continue;
                    }
                    Iperf2Datagram.writeHeader(buf, v, id, epochBase + now / 1000L);
                    buf.position(0).limit(payload);
                    if (ch.write(buf) > 0) {
                        id++;
                        bytes += payload;
                        lastProgress = now;
                    } else if (now - lastProgress > timeoutNanos) {
                        throw new SocketTimeoutException("no datagram could be sent for " + timeoutNanos / 1_000_000
                                + " ms (the I/O timeout)");
                    }
                }
                sentNanos = clock.nanoTime() - start;
                last(listener, ticks, start + sentNanos, bytes, id - 1);
                report = finish(ch, sel, buf, v, id, payload, epochBase, clock, timeoutNanos);
            } catch (IOException e) {
                // the server went away mid-test (ICMP port unreachable on a later send or read): say what had gone before
                throw failure(server, e, partial(bytes, id - 1, "datagrams"));
            }
            long datagrams = id; // id - 1 data datagrams and the final one
            return new Iperf2Result(spec, server, v, new Iperf2Result.Local(bytes + payload, datagrams, sentNanos), report,
                    report.isPresent() ? "" : "the server sent no report for the final datagram after " + FINAL_TRIES
                            + " tries (or within the I/O timeout)", interrupted);
        }
    }

    /** Passes the last, partial interval, when it is long enough or holds bytes. */
    private static void last(IntervalListener listener, IntervalTicker ticks, long now, long bytes, long datagrams) {
        IntervalSample s = ticks.last(now, bytes, datagrams);
        if (s != null) {
            listener.onInterval(0, PeerDirection.FORWARD, s);
        }
    }

    /** Sends the final datagram until the report comes, at most {@link #FINAL_TRIES} times and within the I/O timeout. */
    private static Optional<Iperf2ServerReport> finish(DatagramChannel ch, Selector sel, ByteBuffer buf, Iperf2HeaderVariant v,
                                                       long id, int payload, long epochBase, Clock clock, long timeoutNanos)
            throws IOException {
        long giveUp = clock.nanoTime() + timeoutNanos;
        ByteBuffer in = ByteBuffer.allocate(65536);
        for (int i = 0; i < FINAL_TRIES && clock.nanoTime() < giveUp; i++) {
            Iperf2Datagram.writeHeader(buf, v, -id, epochBase + clock.nanoTime() / 1000L);
            buf.position(0).limit(payload);
            ch.write(buf);
            long until = Math.min(giveUp, clock.nanoTime() + FINAL_WAIT_MILLIS * 1_000_000L);
            while (true) {
                in.clear();
                if (ch.read(in) > 0) {
                    in.flip();
                    try {
                        return Optional.of(Iperf2ServerReport.parse(in, v.headerBytes()));
                    } catch (IllegalArgumentException notAReport) {
                        continue; // something else on the port: keep waiting
                    }
                }
                long left = (until - clock.nanoTime()) / 1_000_000;
                if (left <= 0) {
                    break;
                }
                sel.selectedKeys().clear();
                sel.select(left);
            }
        }
        return Optional.empty();
    }
}
