package io.linerate.peers.iperf2;

import io.linerate.core.spi.Rfc3550Jitter;
import io.linerate.core.spi.SequenceTracker;
import io.linerate.peers.internal.ServedIntervals;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.OptionalDouble;

/**
 * One iperf 2 UDP test as linerate's server counts it: the header layout seen in its first
 * datagram, the ids (loss, reordering and duplicates by {@link SequenceTracker}), RFC 3550 jitter
 * on the client's send stamps, and bytes. {@link #onDatagram} allocates nothing; the interval lines
 * are read from the counts by the server's sweep ({@link #tick}), not per datagram.
 */
final class Iperf2UdpSession {
    final InetSocketAddress client;
    final Iperf2HeaderVariant header;
    final long firstNanos;
    private final SequenceTracker tracker = new SequenceTracker();
    private final Rfc3550Jitter jitter = new Rfc3550Jitter();
    long lastNanos;
    long bytes;
    long datagrams;
    /** The first final datagram's id (negative), 0 before it: what the report counts, whatever re-sends follow. */
    private long finalId;
    /** The first final datagram's send stamp, µs since the Unix epoch by the client's clock. */
    private long finalSendMicros;

    /** The test's number on its server, from 1. */
    final long test;
    private final ServedIntervals lines;
    private final ServedTestListener listener;

    /** A test that reports nothing but its counts and report. */
    Iperf2UdpSession(InetSocketAddress client, Iperf2HeaderVariant header, long nowNanos) {
        this(client, header, nowNanos, 0, ServedTestListener.NONE);
    }

    Iperf2UdpSession(InetSocketAddress client, Iperf2HeaderVariant header, long nowNanos, long test,
                     ServedTestListener listener) {
        this.client = client;
        this.header = header;
        this.firstNanos = nowNanos;
        this.lastNanos = nowNanos;
        this.test = test;
        this.listener = listener;
        this.lines = new ServedIntervals(listener, test, 0, false, true, nowNanos, ServedIntervals.DEFAULT_INTERVAL, nowNanos);
    }

    /** On the server's sweep: reports the interval whose boundary passed at {@code now}, ns. */
    void tick(long now) {
        if (lines.due(now)) {
            lines.tick(now, bytes, datagrams, tracker.missingSoFar(), jitterNanos());
        }
    }

    /**
     * Reports the last interval and the test's summary: for a test answered, the report's counts.
     *
     * @param now when it ended, ns
     * @param end {@link ServedSummary#DONE}, or why it was cut short
     */
    void end(long now, String end) {
        lines.finish(now, bytes, datagrams, tracker.missingSoFar(), jitterNanos());
        boolean done = finalId != 0;
        Iperf2ServerReport r = done ? report() : null;
        listener.onEnd(new ServedSummary(test, false, true, Math.max(0, lastNanos - firstNanos), bytes,
                done ? r.datagrams() - r.errors() : datagrams, done ? r.errors() : 0,
                jitter.samples() > 0 ? OptionalDouble.of(jitter.nanos()) : OptionalDouble.empty(), end));
    }

    private double jitterNanos() {
        return jitter.samples() > 0 ? jitter.nanos() : Double.NaN;
    }

    /**
     * Counts one datagram.
     *
     * @param buf the datagram, from 0 to its limit; one shorter than the test's header is ignored
     * @param epochNanos its arrival, ns since the Unix epoch
     * @return whether it was the final datagram (negative id)
     */
    boolean onDatagram(ByteBuffer buf, long nowNanos, long epochNanos) {
        if (buf.limit() < header.headerBytes()) {
            return false; // too short for this test's header (a 16-byte layout's first datagram set it): not iperf 2's
        }
        lastNanos = nowNanos;
        bytes += buf.limit();
        datagrams++;
        long id = Iperf2Datagram.id(buf, header);
        jitter.onArrival(Iperf2Datagram.sendMicros(buf) * 1000L, epochNanos);
        if (id < 0) {
            if (finalId == 0) {
                finalId = id;
                finalSendMicros = Iperf2Datagram.sendMicros(buf);
            }
            return true;
        }
        if (id > 0) {
            tracker.onArrival(id - 1);
        }
        return false;
    }

    /**
     * Whether a datagram that arrives after this test's final one was sent before it: a duplicate
     * or a late copy of a datagram of this test (its send stamp is not after the final's, by the
     * same client clock), not the start of a new test from the same address and port.
     *
     * @param buf the datagram, from 0 to its limit
     * @return true when it belongs to this test
     */
    boolean sentBeforeFinal(ByteBuffer buf) {
        return finalId != 0 && Iperf2Datagram.sendMicros(buf) <= finalSendMicros;
    }

    /**
     * The report for the test, fixed by the first final datagram that arrived (its id negative):
     * datagrams in all is that id's magnitude (the data ids 1..|id|-1 and the final one), lost is
     * that less the distinct data ids received and the final one. iperf 2.1.8 re-sends its final
     * datagram with a magnitude one higher each time (-940, -941, ...) until it hears a report; a
     * re-send or duplicate changes nothing here. Only when the first final is lost on the way does
     * the report count the first re-send's id, as iperf 2's own server does.
     *
     * @throws IllegalStateException before the final datagram arrived
     */
    Iperf2ServerReport report() {
        if (finalId == 0) {
            throw new IllegalStateException("the test's final datagram has not arrived: there is no report yet");
        }
        // -(2^63) has no positive counterpart: no client sends 2^63 datagrams, so cap it
        long total = finalId == Long.MIN_VALUE ? Long.MAX_VALUE : -finalId;
        long errors = Math.max(0, total - tracker.distinct() - 1);
        return new Iperf2ServerReport(0, bytes, Math.max(0, lastNanos - firstNanos) / 1000L, errors, tracker.reordered(), total,
                Math.round(jitter.nanos() / 1000.0));
    }
}
