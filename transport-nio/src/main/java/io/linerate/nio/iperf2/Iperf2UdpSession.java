package io.linerate.nio.iperf2;

import io.linerate.core.Rfc3550Jitter;
import io.linerate.core.SequenceTracker;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * One iperf 2 UDP test as linerate's server counts it: the header layout seen in its first
 * datagram, the ids (loss, reordering and duplicates by {@link SequenceTracker}), RFC 3550 jitter
 * on the client's send stamps, and bytes. {@link #onDatagram} allocates nothing.
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

    Iperf2UdpSession(InetSocketAddress client, Iperf2HeaderVariant header, long nowNanos) {
        this.client = client;
        this.header = header;
        this.firstNanos = nowNanos;
        this.lastNanos = nowNanos;
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
            return true;
        }
        if (id > 0) {
            tracker.onArrival(id - 1);
        }
        return false;
    }

    /**
     * The report for the final datagram with id {@code finalId} (negative): datagrams in all is
     * its magnitude (the data ids 1..|finalId|-1 and the final one), lost is that less the distinct
     * data ids received and the final one.
     */
    Iperf2ServerReport report(long finalId) {
        // -(2^63) has no positive counterpart: no client sends 2^63 datagrams, so cap it
        long total = finalId == Long.MIN_VALUE ? Long.MAX_VALUE : -finalId;
        long errors = Math.max(0, total - tracker.distinct() - 1);
        return new Iperf2ServerReport(0, bytes, Math.max(0, lastNanos - firstNanos) / 1000L, errors, tracker.reordered(), total,
                Math.round(jitter.nanos() / 1000.0));
    }
}
