package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.Clock;
import io.linerate.core.Rates;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The calling thread's part of a raw run: while the run's leading loop runs (the sender's, or the
 * receiver's in a run without a sender), it reads the counters the loops published at every
 * interval boundary, stamps the reading right after it (DESIGN rule 1), hands the interval to the
 * listener and accumulates the rings' kernel statistics. At every turn (at least every
 * {@value #MAX_WAIT_MILLIS} ms) it copies the counters into the live counters file. When the sender has ended, it tells the
 * receiver, which drains what is still in flight, and waits for it.
 */
final class IntervalMonitor {
    /** Longest wait between two turns, ms: the live counters are at most this old. */
    private static final long MAX_WAIT_MILLIS = 50;

    private final RawTransferSpec spec;
    private final Clock clock;
    private final RunSchedule schedule;
    private final Consumer<RawInterval> intervals;
    private final RawRun.TxEnd tx;
    private final RawRun.RxEnd rx;
    private final LiveRawCounters live;
    private Throwable readError;

    /**
     * @param tx the sending end, or null in a run without a sender
     * @param rx the receiving end, or null in a run without a receiver
     */
    private boolean stoppedByInterrupt;

    IntervalMonitor(RawTransferSpec spec, Clock clock, RunSchedule schedule, Consumer<RawInterval> intervals,
                    RawRun.TxEnd tx, RawRun.RxEnd rx, LiveRawCounters live) {
        this.spec = spec;
        this.clock = clock;
        this.schedule = schedule;
        this.intervals = intervals;
        this.tx = tx;
        this.rx = rx;
        this.live = live;
    }

    /**
     * Runs until the sender ended and the receiver drained; a listener that throws ends it with
     * that exception (the caller's closer stops the loops).
     */
    /** @return whether an interrupt of the thread that ran {@link #run()} stopped the loops before they ended */
    boolean stoppedByInterrupt() {
        return stoppedByInterrupt;
    }

    void run() {
        Worker leading = tx != null ? tx.worker() : rx.worker();
        long prevT = schedule.t0();
        long prevTx = 0;
        long prevRx = 0;
        long next = schedule.nextTick(prevT);
        while (leading.running()) {
            long waitMs = Math.max(1, (next - clock.nanoTime()) / 1_000_000);
            leading.join(Math.min(waitMs, MAX_WAIT_MILLIS));
            // the run takes the interrupt: left set, it would cut short every later join, the receiver's
            // drain of the frames still in flight among them, and count those frames as lost
            stoppedByInterrupt |= Thread.interrupted();
            if (tx != null && (stoppedByInterrupt || rx != null && rx.receiver().error() != null)) {
                tx.loop().requestStop();
            } else if (tx == null && stoppedByInterrupt) {
                rx.receiver().requestStop();
            }
            boolean done = !leading.running();
            long now = clock.nanoTime();
            live.publish();
            if (now >= next || done) {
                long txs = sentSoFar();
                long rxs = receivedSoFar();
                long t = clock.nanoTime();
                if (t > prevT) {
                    report(prevT, t, txs - prevTx, rxs - prevRx);
                }
                accumulateStatistics();
                prevT = t;
                prevTx = txs;
                prevRx = rxs;
                next = schedule.nextTick(now);
            }
        }
        if (tx != null) {
            finishSending();
        }
        live.publish();
    }

    private void finishSending() {
        long drainMillis = spec.drainTimeout().toMillis();
        tx.worker().join(drainMillis + 2_000);
        if (tx.worker().running()) {
            tx.worker().close();
        }
        if (rx == null) {
            return;
        }
        TxStream[] streams = tx.streams();
        long[] sent = new long[streams.length];
        for (int i = 0; i < streams.length; i++) {
            sent[i] = streams[i].nextSeq; // the sending thread ended: its counts are final and visible
        }
        rx.receiver().senderFinished(sent, clock.nanoTime() + spec.drainTimeout().toNanos());
        rx.worker().join(drainMillis + 2_000);
        if (rx.worker().running()) {
            rx.worker().close();
        }
    }

    private long sentSoFar() {
        long n = 0;
        if (tx != null) {
            for (TxStream s : tx.streams()) {
                n += s.published();
            }
        }
        return n;
    }

    private long receivedSoFar() {
        long n = 0;
        if (rx != null) {
            for (RxStream s : rx.receiver().streams()) {
                n += s.published();
            }
        }
        return n;
    }

    /** Accumulates the rings' kernel statistics; the first failure is kept for the result. */
    void accumulateStatistics() {
        if (rx == null) {
            return;
        }
        try {
            rx.receiver().accumulateStatistics();
        } catch (AfPacketException e) {
            if (readError == null) {
                readError = e;
            }
        }
    }

    /** @return the first failure to read the rings' statistics, or null */
    Throwable readError() {
        return readError;
    }

    private void report(long from, long to, long txFrames, long rxFrames) {
        long ns = to - from;
        RawInterval i = new RawInterval((from - schedule.t0()) / 1e9, (to - schedule.t0()) / 1e9, spec.frameSize(),
                tx == null ? Optional.empty() : Optional.of(rate(txFrames, ns)),
                rx == null ? Optional.empty() : Optional.of(rate(rxFrames, ns)),
                from < schedule.measureStart());
        live.interval(i, from - schedule.t0(), to - schedule.t0());
        intervals.accept(i);
    }

    private RawRate rate(long frames, long ns) {
        return new RawRate(frames, Rates.perSecond(frames, ns), Rates.bitsPerSecond(frames * spec.frameSize(), ns));
    }
}
