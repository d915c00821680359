package io.linerate.core.spi.engine;

import io.linerate.core.IntervalListener;
import io.linerate.core.TransferSpec;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.TransferCounters;

/**
 * Publishes a running stream's counters to the process's live counters file.
 *
 * <p>The engine's monitor thread publishes, never the send or receive loop: at every turn of its
 * loop (at least every 50 ms, and at every interval reading) it copies the counters the loops
 * already publish for it into the file, and at every interval sample the interval's rate. The
 * loops' per-message cost is unchanged, and a reader sees values at most one turn old. A
 * {@link StreamEnd} (one end here, the other on a peer) publishes its own side only: a sending end's
 * received counters, and a receiving end's sent ones, stay 0.
 */
final class LiveStreamCounters implements AutoCloseable {
    private final SenderContext tx;
    private final ReceiverContext rx;
    private final TransferCounters live;

    private LiveStreamCounters(SenderContext tx, ReceiverContext rx, TransferCounters live) {
        this.tx = tx;
        this.rx = rx;
        this.live = live;
    }

    /** Registers the transfer; never fails (detached counters when the file cannot be made). */
    static LiveStreamCounters open(TransferSpec spec, SenderContext tx, ReceiverContext rx) {
        return new LiveStreamCounters(tx, rx, LiveCounters.process().transfer(label(spec)));
    }

    /**
     * Registers one end of a stream whose other end runs elsewhere; never fails.
     *
     * @param tx the sending end's context, or null for a receiving end
     * @param rx the receiving end's context, or null for a sending end
     */
    static LiveStreamCounters openEnd(TransferSpec spec, SenderContext tx, ReceiverContext rx) {
        String label = label(spec) + ", " + (tx != null ? "sending" : "receiving") + " end"
                + (spec.endpoint().remoteAddress().isPresent() ? " with " + spec.endpoint() : "");
        return new LiveStreamCounters(tx, rx, LiveCounters.process().transfer(label));
    }

    /** @return {@code stream udp4 1400 B 10.000 s}: pattern, marker, payload and bound */
    static String label(TransferSpec spec) {
        return "stream " + spec.testName() + " " + spec.payloadBytes() + " B " + spec.bound();
    }

    /** Copies the loops' counters into the file; allocation-free. */
    void publish() {
        if (tx != null) {
            live.bytesSent(tx.bytes());
            live.messagesSent(tx.messages());
        }
        if (rx != null) {
            live.bytesReceived(rx.bytes());
            live.messagesReceived(rx.datagrams());
            live.lost(rx.missing());
        }
        live.heartbeat();
    }

    /** @return a listener that publishes each interval's rate and the counters, then calls {@code next} */
    IntervalListener publishingTo(IntervalListener next) {
        return live.publishingTo(s -> {
            publish();
            next.onInterval(s);
        });
    }

    /** Frees the counters. */
    @Override
    public void close() {
        live.close();
    }
}
