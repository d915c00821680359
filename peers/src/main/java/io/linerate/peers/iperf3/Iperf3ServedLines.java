package io.linerate.peers.iperf3;

import io.linerate.peers.internal.ServedIntervals;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.util.List;
import java.util.OptionalDouble;

/**
 * The interval lines and summaries of one iperf3 test the server runs, as {@code iperf3 -s} prints
 * them: per reporting interval the bytes the test's streams received (and, for UDP, jitter and
 * lost/total datagrams), and those they sent in a reverse or bidirectional test, each direction's
 * streams summed. Read by the test's control thread from the streams' counters, never by the
 * streams' own loops: their bytes and datagrams are volatile, their loss and jitter published by
 * {@link UdpSeen}. The jitter of several streams is their mean, as iperf3's sum line shows it.
 */
final class Iperf3ServedLines {
    private final ServedTestListener listener;
    private final long test;
    private final boolean udp;
    private final List<DataStream> streams;
    private final ServedIntervals received;
    private final ServedIntervals sent;
    private final long t0;

    /**
     * @param t0 when the test's streams start, {@link System#nanoTime()} ns
     * @param omitEnd the end of the client's omit period, ns; {@code t0} for none
     */
    Iperf3ServedLines(ServedTestListener listener, long test, Iperf3TestParams params, List<DataStream> streams,
                      long t0, long omitEnd) {
        this.listener = listener;
        this.test = test;
        this.udp = params.udp();
        this.streams = List.copyOf(streams);
        this.t0 = t0;
        boolean receives = streams.stream().anyMatch(s -> !s.sender());
        boolean sends = streams.stream().anyMatch(DataStream::sender);
        this.received = receives ? new ServedIntervals(listener, test, 0, false, udp, t0, params.interval(), omitEnd) : null;
        this.sent = sends ? new ServedIntervals(listener, test, 0, true, udp, t0, params.interval(), omitEnd) : null;
    }

    /** @return the test for people: protocol, streams and direction */
    static String describe(Iperf3TestParams params) {
        return "iperf3 " + (params.udp() ? "UDP" : "TCP") + ", " + params.parallel() + " stream(s)"
                + (params.bidirectional() ? " each way" : params.reverse() ? ", reverse (the server sends)" : "");
    }

    /** Reports the intervals whose boundary passed at {@code now}, {@link System#nanoTime()} ns. */
    void tick(long now) {
        if (received != null && received.due(now)) {
            read(received, false, now, false);
        }
        if (sent != null && sent.due(now)) {
            read(sent, true, now, false);
        }
    }

    /** Reports the rest of each direction, up to {@code now}; once the streams are joined, their final counts. */
    void finish(long now) {
        if (received != null) {
            read(received, false, now, true);
        }
        if (sent != null) {
            read(sent, true, now, true);
        }
    }

    private void read(ServedIntervals lines, boolean sending, long now, boolean last) {
        long bytes = 0;
        long datagrams = 0;
        long missing = 0;
        double jitter = 0;
        int jitters = 0;
        for (DataStream s : streams) {
            if (s.sender() != sending) {
                continue;
            }
            bytes += s.bytes;
            datagrams += s.messages;
            missing += s.seen.missing();
            double j = s.seen.jitterNanos();
            if (!Double.isNaN(j)) {
                jitter += j;
                jitters++;
            }
        }
        double mean = jitters == 0 ? Double.NaN : jitter / jitters;
        if (last) {
            lines.finish(now, bytes, datagrams, missing, mean);
        } else {
            lines.tick(now, bytes, datagrams, missing, mean);
        }
    }

    /**
     * Reports each direction's summary: the server's results as sent to the client.
     *
     * @param results the results sent
     */
    void summaries(Iperf3ServerResults results) {
        for (boolean sending : new boolean[] {false, true}) {
            long bytes = 0;
            long packets = 0;
            long lost = 0;
            double seconds = 0;
            double jitter = 0;
            int n = 0;
            for (Iperf3ServerResults.Stream s : results.streams()) {
                if (s.sender() != sending) {
                    continue;
                }
                n++;
                bytes += s.bytes();
                packets += s.packets();
                lost += s.lost();
                seconds = Math.max(seconds, s.seconds());
                jitter += s.jitterSeconds();
            }
            if (n > 0) {
                listener.onEnd(new ServedSummary(test, sending, udp, Math.round(seconds * 1e9), bytes,
                        sending ? packets : packets - lost, sending ? 0 : lost,
                        udp && !sending ? OptionalDouble.of(jitter / n * 1e9) : OptionalDouble.empty(), ServedSummary.DONE));
            }
        }
    }

    /**
     * Reports the rest of each direction's lines and its summary for a test cut short: its counts so far.
     *
     * @param end why it ended
     */
    void cutShort(String end) {
        long now = System.nanoTime();
        finish(now);
        long nanos = now - t0;
        for (boolean sending : new boolean[] {false, true}) {
            long bytes = 0;
            long datagrams = 0;
            int n = 0;
            for (DataStream s : streams) {
                if (s.sender() == sending) {
                    n++;
                    bytes += s.bytes;
                    datagrams += s.messages;
                }
            }
            if (n > 0) {
                listener.onEnd(new ServedSummary(test, sending, udp, nanos, bytes, udp ? datagrams : 0, 0,
                        OptionalDouble.empty(), end));
            }
        }
    }
}
