package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.Clock;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The lifecycle of one raw run, built around one {@link RunCloser}: install the steering rules,
 * enable hardware stamps, open the RX rings and the TX socket, take the interface counter
 * baselines (one place, before the first frame), register the run's live counters, start the
 * loops, monitor them (publishing the live counters) until the sender
 * has ended and the receiver has drained (or, without a sender, until the receiver's listening
 * time is over), take the final counter readings, and assemble the result. Every rule, ring,
 * socket and thread is registered with the closer as soon as it exists, so each is released on
 * every path, failures included, in the reverse order of opening. A run with one end opens only
 * that end.
 */
final class RawRun {
    /** Wait before a further reading of interface counters that dipped (a glitch may last a little while). */
    private static final Duration COUNTER_SETTLE_PAUSE = Duration.ofMillis(10);

    /** The sending end of a run. */
    record TxEnd(TxStream[] streams, FrameSender sender, SendLoop loop, Worker worker) {}

    /** The receiving end of a run. */
    record RxEnd(FrameReceiver receiver, Worker worker) {}

    private final RawTransferSpec spec;
    private final Clock clock;
    private final Consumer<RawInterval> intervals;
    private final RawTransfer.Interface txIf;
    private final RawTransfer.Interface rxIf;
    private final byte[] dst;
    private final byte[] src;
    private final EthtoolIoctl ethtool;
    private final Runnable listening;
    private Throwable lateError;

    /**
     * @param txIf the sending interface, or null for a run without a sender
     * @param rxIf the receiving interface, or null for a run without a receiver
     * @param listening run once the receiver's rings are open and the counters have their baseline
     */
    RawRun(RawTransferSpec spec, Clock clock, Consumer<RawInterval> intervals, RawTransfer.Interface txIf,
           RawTransfer.Interface rxIf, byte[] dst, byte[] src, EthtoolIoctl ethtool, Runnable listening) {
        this.spec = spec;
        this.clock = clock;
        this.intervals = intervals;
        this.txIf = txIf;
        this.rxIf = rxIf;
        this.dst = dst;
        this.src = src;
        this.ethtool = ethtool;
        this.listening = listening;
    }

    RawResult execute() throws TransferException {
        try (RunCloser closer = new RunCloser()) {
            SteeringSetup steering = closer.add(SteeringSetup.install(spec, ethtool));
            HwStamps hw = closer.add(rxIf != null && spec.hardwareTimestamps() ? HwStamps.enable(rxIf.name()) : HwStamps.none());
            Worker rxWorker = new Worker("linerate-afpacket-rx");
            Worker txWorker = new Worker("linerate-afpacket-tx");
            FrameReceiver receiver = null;
            if (rxIf != null) {
                receiver = FrameReceiver.open(spec, rxIf, hw.enabled(), clock);
                closer.add(rxWorker.guard(receiver));
            }
            TxStream[] streams = null;
            FrameSender sender = null;
            if (txIf != null) {
                streams = TxStream.of(spec, dst, src);
                sender = spec.txRing() ? RingFrameSender.open(spec, txIf) : MmsgFrameSender.open(spec, txIf, streams);
                closer.add(txWorker.guard(sender));
            }
            // all baselines in one place, before the first frame
            Counters txNic = Counters.baseline(txIf, clock);
            Counters rxNic = Counters.baseline(rxIf, clock);

            // live counters for other processes (linerate stat), made before the clock starts
            LiveRawCounters live = closer.add(LiveRawCounters.open(spec, streams, receiver));
            if (receiver != null) {
                // a sender elsewhere may start now: its frames are counted by the ring and the baselines
                listening.run();
            }
            RunSchedule schedule = RunSchedule.start(clock.nanoTime(), spec);
            TxEnd tx = null;
            RxEnd rx = null;
            closer.add(rxWorker);
            closer.add(txWorker);
            if (receiver != null) {
                rx = new RxEnd(receiver, rxWorker);
                receiver.prepare(schedule.intervalNanos(),
                        spec.warmup().toNanos() + spec.duration().toNanos() + spec.drainTimeout().toNanos());
                if (txIf == null) {
                    receiver.listenUntil(schedule.end());
                }
                rxWorker.start(receiver, receiver::requestStop);
            }
            if (sender != null) {
                // both ends here: the sender waits for the receiver's credit unless asked to run unpaced
                ReceiverCredit credit = receiver != null && !spec.unpaced()
                        ? ReceiverCredit.of(receiver, spec.drainTimeout().toNanos() + spec.retireTimeout().toNanos())
                        : ReceiverCredit.none();
                SendLoop loop = new SendLoop(spec, clock, schedule, sender, streams, IdleStrategies.sender(spec.idle()), credit);
                tx = new TxEnd(streams, sender, loop, txWorker);
                txWorker.start(loop, loop::requestStop);
            }
            IntervalMonitor monitor = new IntervalMonitor(spec, clock, schedule, intervals, tx, rx, live);
            monitor.run();

            // a dip in the final reading is decided by the readings readSettled takes after it
            Optional<NicCounters.Delta> txDelta = finalDelta(txNic);
            Optional<NicCounters.Delta> rxDelta = finalDelta(rxNic);
            if (rx != null) {
                monitor.accumulateStatistics();
                note(monitor.readError());
            }
            Throwable error = tx != null && tx.loop().error() != null ? tx.loop().error()
                    : rx != null && rx.receiver().error() != null ? rx.receiver().error() : lateError;
            return new ResultAssembler(spec, schedule).result(tx, txDelta, rx, steering, rxDelta, error,
                    monitor.stoppedByInterrupt());
        }
    }

    private Optional<NicCounters.Delta> finalDelta(Counters c) {
        try {
            return c.delta();
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

    /** An interface's counters and their baseline; holds nothing for an end not in the run. */
    private static final class Counters {
        private final NicCounters nic;
        private final NicCounters.Snapshot base;

        private Counters(NicCounters nic, NicCounters.Snapshot base) {
            this.nic = nic;
            this.base = base;
        }

        /**
         * Takes the baseline: a second reading, settled, so that neither a low first reading nor a
         * dip in the baseline itself is taken for motion of the run.
         *
         * @param i the interface, or null for an end not in the run
         */
        static Counters baseline(RawTransfer.Interface i, Clock clock) throws TransferException {
            if (i == null) {
                return new Counters(null, null);
            }
            NicCounters nic = NicCounters.of(i.name(), clock);
            try {
                nic.read();
                return new Counters(nic, nic.readSettled(COUNTER_SETTLE_PAUSE));
            } catch (IOException e) {
                throw new TransferException("cannot read interface counters: " + e.getMessage(), e, true);
            }
        }

        /** @return the motion since the baseline, or empty (a failure to read is thrown) */
        Optional<NicCounters.Delta> delta() throws IOException {
            return nic == null ? Optional.empty() : Optional.of(nic.readSettled(COUNTER_SETTLE_PAUSE).minus(base));
        }
    }
}
