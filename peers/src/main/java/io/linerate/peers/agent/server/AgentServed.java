package io.linerate.peers.agent.server;

import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.server.ServedInterval;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.OptionalDouble;

/**
 * What the agent reports of one stream session to its {@link ServedTestListener}: the start, each
 * stream's interval samples as its end takes them (on that stream's measuring thread, at the
 * spec's interval, warm-up ones omitted), and a summary of the window counts it sends the client.
 * A session of one stream reports it as stream 0, the test's whole; one of several reports each
 * stream by its number from 1.
 */
final class AgentServed {
    private final ServedTestListener listener;
    private final long test;
    private final boolean sending;
    private final boolean udp;
    private final int streams;
    private long t0;

    AgentServed(ServedTestListener listener, long test, TransferSpec spec, int streams, boolean sending) {
        this.listener = listener;
        this.test = test;
        this.sending = sending;
        this.udp = spec.protocol() == Protocol.UDP;
        this.streams = streams;
    }

    /** Reports the start; the streams start now. */
    void started(InetSocketAddress client, TransferSpec spec) {
        t0 = System.nanoTime();
        listener.onStart(new ServedStart(test, client, "linerate " + spec.protocol().label() + " stream, " + streams
                + " stream(s), " + (sending ? "reverse (the agent sends)" : "forward")));
    }

    /** @return stream {@code i}'s interval listener */
    IntervalListener stream(int i) {
        int number = streams == 1 ? 0 : i + 1;
        return sample -> listener.onInterval(new ServedInterval(test, number, sending, udp, sample));
    }

    /**
     * Reports the session's window counts, every stream's summed: the figures the client gets.
     *
     * @param peerSent each stream's datagrams the client's sender reported sent in its window, -1 when unknown
     */
    void done(List<EndCounters> counters, long[] peerSent) {
        long bytes = 0;
        long datagrams = 0;
        long lost = 0;
        long nanos = 0;
        double jitter = 0;
        int jitters = 0;
        for (int i = 0; i < counters.size(); i++) {
            EndCounters c = counters.get(i);
            bytes += c.windowBytes();
            datagrams += c.windowMessages();
            nanos = Math.max(nanos, c.windowNanos());
            if (udp && !sending && i < peerSent.length && peerSent[i] >= 0) {
                lost += Math.max(0, peerSent[i] - c.windowMessages());
            }
            if (c.jitterNanos().isPresent()) {
                jitter += c.jitterNanos().getAsDouble();
                jitters++;
            }
        }
        listener.onEnd(new ServedSummary(test, sending, udp, nanos, bytes, udp ? datagrams : 0, lost,
                jitters == 0 ? OptionalDouble.empty() : OptionalDouble.of(jitter / jitters), ServedSummary.DONE));
    }

    /**
     * Reports a session cut short: its bytes and messages so far over the whole stream, from its start.
     *
     * @param end why it ended
     */
    void cutShort(long bytes, long messages, String end) {
        listener.onEnd(new ServedSummary(test, sending, udp, System.nanoTime() - t0, bytes, udp ? messages : 0, 0,
                OptionalDouble.empty(), end));
    }
}
