package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Rates;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The calling thread's part of a raw run: while the sender runs, it reads the counters the loops
 * published at every interval boundary, stamps the reading right after it (DESIGN rule 1), hands
 * the interval to the listener and accumulates the rings' kernel statistics. When the sender has
 * ended, it tells the receiver, which drains what is still in flight, and waits for it.
 */
final class IntervalMonitor {
    private static final long MAX_WAIT_MILLIS = 100;

    private final RawTransferSpec spec;
    private final Clock clock;
    private final RunSchedule schedule;
    private final Consumer<RawInterval> intervals;
    private final TxStream[] tx;
    private final FrameReceiver receiver;
    private Throwable readError;

    IntervalMonitor(RawTransferSpec spec, Clock clock, RunSchedule schedule, Consumer<RawInterval> intervals,
                    TxStream[] tx, FrameReceiver receiver) {
        this.spec = spec;
        this.clock = clock;
        this.schedule = schedule;
        this.intervals = intervals;
        this.tx = tx;
        this.receiver = receiver;
    }

    /**
     * Runs until the sender ended and the receiver drained; a listener that throws ends it with
     * that exception (the caller's closer stops both loops).
     */
    void run(Worker txWorker, SendLoop sendLoop, Worker rxWorker) {
        long prevT = schedule.t0();
        long prevTx = 0;
        long prevRx = 0;
        long next = schedule.nextTick(prevT);
        while (txWorker.running()) {
            long waitMs = Math.max(1, (next - clock.nanoTime()) / 1_000_000);
            txWorker.join(Math.min(waitMs, MAX_WAIT_MILLIS));
            if (Thread.currentThread().isInterrupted() || receiver.error() != null) {
                sendLoop.requestStop();
            }
            boolean done = !txWorker.running();
            long now = clock.nanoTime();
            if (now >= next || done) {
                long txs = 0;
                long rxs = 0;
                for (TxStream s : tx) {
                    txs += s.published();
                }
                for (RxStream s : receiver.streams()) {
                    rxs += s.published();
                }
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
        long drainMillis = spec.drainTimeout().toMillis();
        txWorker.join(drainMillis + 2_000);
        if (txWorker.running()) {
            txWorker.close();
        }
        long[] sent = new long[tx.length];
        for (int i = 0; i < tx.length; i++) {
            sent[i] = tx[i].nextSeq; // the sending thread ended: its counts are final and visible
        }
        receiver.senderFinished(sent, clock.nanoTime() + spec.drainTimeout().toNanos());
        rxWorker.join(drainMillis + 2_000);
        if (rxWorker.running()) {
            rxWorker.close();
        }
    }

    /** Accumulates the rings' kernel statistics; the first failure is kept for the result. */
    void accumulateStatistics() {
        try {
            receiver.accumulateStatistics();
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
        long bytes = spec.frameSize();
        intervals.accept(new RawInterval((from - schedule.t0()) / 1e9, (to - schedule.t0()) / 1e9, spec.frameSize(),
                Optional.of(new RawRate(txFrames, Rates.perSecond(txFrames, ns), Rates.bitsPerSecond(txFrames * bytes, ns))),
                Optional.of(new RawRate(rxFrames, Rates.perSecond(rxFrames, ns), Rates.bitsPerSecond(rxFrames * bytes, ns))),
                from < schedule.measureStart()));
    }
}
