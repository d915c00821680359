package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.IntervalSample;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.TransferCounters;
import java.util.Locale;
import java.util.Optional;

/**
 * Publishes a running raw transfer's counters to the process's live counters file
 * ({@link LiveCounters}), so that {@code linerate stat} and other processes can watch it. The
 * monitoring thread publishes, never the send or receive loop: at every turn of its loop (at
 * least every 50 ms) it copies what the loops already published for it; at every interval it
 * publishes the interval's rate (the receiver's, or the sender's in a run without a receiver).
 * Frames are the messages, their L2 bytes the bytes; lost is the receiver's sequence numbers
 * missing so far. Never fails a run: without a file the counters are detached.
 */
final class LiveRawCounters implements AutoCloseable {
    private final TxStream[] tx;
    private final FrameReceiver rx;
    private final long frameSize;
    private final TransferCounters live;

    private LiveRawCounters(RawTransferSpec spec, TxStream[] tx, FrameReceiver rx, TransferCounters live) {
        this.tx = tx;
        this.rx = rx;
        this.frameSize = spec.frameSize();
        this.live = live;
    }

    /**
     * Registers the run.
     *
     * @param tx the sender's streams, or null in a run without a sender
     * @param rx the receiver, or null in a run without a receiver
     */
    static LiveRawCounters open(RawTransferSpec spec, TxStream[] tx, FrameReceiver rx) {
        return new LiveRawCounters(spec, tx, rx, LiveCounters.process().transfer(label(spec)));
    }

    /** @return {@code raw tx veth0 rx veth1 1514 B 10.000 s}: pattern, the ends in the run, frame size and duration */
    static String label(RawTransferSpec spec) {
        return "raw" + spec.txInterface().map(i -> " tx " + i).orElse("") + spec.rxInterface().map(i -> " rx " + i).orElse("")
                + " " + spec.frameSize() + " B " + String.format(Locale.ROOT, "%.3f s", spec.duration().toNanos() / 1e9);
    }

    /** Copies the loops' published counters into the file; allocation-free. */
    void publish() {
        if (tx != null) {
            long frames = 0;
            for (TxStream s : tx) {
                frames += s.published();
            }
            live.messagesSent(frames);
            live.bytesSent(frames * frameSize);
        }
        if (rx != null) {
            long bytes = 0;
            long distinct = 0;
            long missing = 0;
            for (RxStream s : rx.streams()) {
                bytes += s.publishedBytes();
                distinct += s.publishedDistinct();
                missing += s.publishedMissing();
            }
            live.bytesReceived(bytes);
            live.messagesReceived(distinct);
            live.lost(missing);
        }
        live.heartbeat();
    }

    /** Publishes the counters and the rate of an interval that just closed. */
    void interval(RawInterval i, long startNanos, long endNanos) {
        publish();
        Optional<RawRate> r = i.rx().isPresent() ? i.rx() : i.tx();
        long frames = r.map(RawRate::frames).orElse(0L);
        live.interval(new IntervalSample(startNanos, endNanos, frames * frameSize, frames, 0, i.omitted()));
    }

    /** Frees the counters; never throws. */
    @Override
    public void close() {
        live.close();
    }
}
