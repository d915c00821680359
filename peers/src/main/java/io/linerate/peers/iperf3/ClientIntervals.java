package io.linerate.peers.iperf3;

import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.PeerDirection;
import io.linerate.peers.internal.IntervalTicker;
import java.util.List;

/**
 * The iperf3 client's interval lines: what linerate sent (forward) and received (reverse) in each
 * interval, summed over its streams, read from the streams' running counts by the thread that
 * watches the test (never on a stream's per-datagram path), each passed to the listener as stream 0
 * of its direction.
 */
final class ClientIntervals {
    private final IntervalListener listener;
    private final boolean udp;
    private final IntervalTicker sent;
    private final IntervalTicker received;

    ClientIntervals(IntervalListener listener, long startNanos, long intervalNanos, boolean udp) {
        this.listener = listener;
        this.udp = udp;
        this.sent = new IntervalTicker(startNanos, intervalNanos);
        this.received = new IntervalTicker(startNanos, intervalNanos);
    }

    /**
     * Passes each direction's interval to the listener when one has closed by {@code now}, or,
     * {@code last}, the partial one up to now.
     */
    void check(List<DataStream> streams, long now, boolean last) {
        if (!last && !sent.due(now) && !received.due(now)) {
            return;
        }
        long sentBytes = 0;
        long sentMsgs = 0;
        long gotBytes = 0;
        long gotMsgs = 0;
        boolean sending = false;
        boolean receiving = false;
        for (DataStream s : streams) {
            if (s.sender()) {
                sending = true;
                sentBytes += s.bytes;
                sentMsgs += s.messages;
            } else {
                receiving = true;
                gotBytes += s.bytes;
                gotMsgs += s.messages;
            }
        }
        if (sending) {
            emit(PeerDirection.FORWARD, sent, now, last, sentBytes, udp ? sentMsgs : 0);
        }
        if (receiving) {
            emit(PeerDirection.REVERSE, received, now, last, gotBytes, udp ? gotMsgs : 0);
        }
    }

    /** Passes direction {@code d}'s sample when its interval has closed, or the last, partial one. */
    private void emit(PeerDirection d, IntervalTicker t, long now, boolean last, long bytes, long datagrams) {
        if (!last && !t.due(now)) {
            return;
        }
        IntervalSample s = last ? t.last(now, bytes, datagrams) : t.tick(now, bytes, datagrams);
        if (s != null) {
            listener.onInterval(0, d, s);
        }
    }
}
