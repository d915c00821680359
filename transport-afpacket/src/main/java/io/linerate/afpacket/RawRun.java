package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * The lifecycle of one raw run, built around one {@link RunCloser}: install the steering rules,
 * enable hardware stamps, open the RX rings and the TX socket, take the interface counter
 * baselines (one place, before the first frame), start both loops, monitor them until the sender
 * has ended and the receiver has drained, take the final counter readings, and assemble the
 * result. Every rule, ring, socket and thread is registered with the closer as soon as it exists,
 * so each is released on every path, failures included, in the reverse order of opening.
 */
final class RawRun {
    /** Wait before a further reading of interface counters that dipped (a glitch may last a little while). */
    private static final Duration COUNTER_SETTLE_PAUSE = Duration.ofMillis(10);

    private final RawTransferSpec spec;
    private final Clock clock;
    private final Consumer<RawInterval> intervals;
    private final int txIndex;
    private final int rxIndex;
    private final byte[] dst;
    private final byte[] src;
    private final EthtoolIoctl ethtool;
    private Throwable lateError;

    RawRun(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, int txIndex, int rxIndex,
           byte[] dst, byte[] src, EthtoolIoctl ethtool) {
        this.spec = spec;
        this.clock = clock;
        this.intervals = intervals;
        this.txIndex = txIndex;
        this.rxIndex = rxIndex;
        this.dst = dst;
        this.src = src;
        this.ethtool = ethtool;
    }

    RawResult execute() throws TransferException {
        try (RunCloser closer = new RunCloser()) {
            SteeringSetup steering = closer.add(SteeringSetup.install(spec, ethtool));
            HwStamps hw = closer.add(spec.hardwareTimestamps() ? HwStamps.enable(spec.rxInterface()) : HwStamps.none());
            Worker rxWorker = new Worker("linerate-afpacket-rx");
            Worker txWorker = new Worker("linerate-afpacket-tx");
            FrameReceiver receiver = FrameReceiver.open(spec, rxIndex, hw.enabled(), clock);
            closer.add(rxWorker.guard(receiver));
            TxStream[] tx = TxStream.of(spec, dst, src);
            FrameSender sender = spec.txRing() ? RingFrameSender.open(spec, txIndex) : MmsgFrameSender.open(spec, txIndex, tx);
            closer.add(txWorker.guard(sender));

            NicCounters txNic = NicCounters.of(spec.txInterface(), clock);
            NicCounters rxNic = NicCounters.of(spec.rxInterface(), clock);
            NicCounters.Snapshot txBase;
            NicCounters.Snapshot rxBase;
            try {
                // All baselines in one place, before the first frame. Each is a second reading,
                // settled, so that neither a low first reading nor a dip in the baseline itself
                // is taken for motion of the run.
                txNic.read();
                rxNic.read();
                txBase = txNic.readSettled(COUNTER_SETTLE_PAUSE);
                rxBase = rxNic.readSettled(COUNTER_SETTLE_PAUSE);
            } catch (IOException e) {
                throw new TransferException("cannot read interface counters: " + e.getMessage(), e, true);
            }

            RunSchedule schedule = RunSchedule.start(clock.nanoTime(), spec);
            long span = spec.warmup().toNanos() + spec.duration().toNanos() + spec.drainTimeout().toNanos();
            receiver.prepare(schedule.intervalNanos(), span);
            SendLoop sendLoop = new SendLoop(spec, clock, schedule, sender, tx, new YieldingIdleStrategy());
            closer.add(rxWorker);
            closer.add(txWorker);
            rxWorker.start(receiver, receiver::requestStop);
            txWorker.start(sendLoop, sendLoop::requestStop);
            IntervalMonitor monitor = new IntervalMonitor(spec, clock, schedule, intervals, tx, receiver);
            monitor.run(txWorker, sendLoop, rxWorker);

            // a dip in the final reading is decided by the readings readSettled takes after it
            Optional<NicCounters.Delta> txDelta = finalDelta(txNic, txBase);
            Optional<NicCounters.Delta> rxDelta = finalDelta(rxNic, rxBase);
            monitor.accumulateStatistics();
            note(monitor.readError());
            Throwable error = sendLoop.error() != null ? sendLoop.error() : receiver.error() != null ? receiver.error() : lateError;
            return new ResultAssembler(spec, schedule).result(tx, sendLoop, sender, txDelta, receiver, steering, rxDelta, error);
        }
    }

    private Optional<NicCounters.Delta> finalDelta(NicCounters nic, NicCounters.Snapshot base) {
        try {
            return Optional.of(nic.readSettled(COUNTER_SETTLE_PAUSE).minus(base));
        } catch (IOException e) {
            note(e);
            return Optional.empty();
        }
    }

    private void note(Throwable e) {
        if (e != null && lateError == null) {
            lateError = e;
        }
    }
}
