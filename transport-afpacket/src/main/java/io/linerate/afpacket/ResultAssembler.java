package io.linerate.afpacket;

import io.linerate.core.RawTransferSpec;

import io.linerate.core.DatagramHeader;
import io.linerate.core.Rates;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns what the loops counted into a {@link RawResult}, after their threads ended: per-stream
 * counts of each end in the run, loss where both ends ran, rates over the measured window, and
 * validity with its reasons. The zero-loss rule (DESIGN rule 4) applies only when both ends are
 * in the run; a run with one end is valid when it ran to its end without error, its end moved
 * frames in the measured window, and nothing was dropped on its side.
 */
final class ResultAssembler {
    private static final int WINDOW = DatagramHeader.WINDOW;
    private static final int WARMUP = DatagramHeader.WARMUP;

    private final RawTransferSpec spec;
    private final RunSchedule schedule;

    ResultAssembler(RawTransferSpec spec, RunSchedule schedule) {
        this.spec = spec;
        this.schedule = schedule;
    }

    /**
     * @param tx the sending end, or null in a run without a sender
     * @param rx the receiving end, or null in a run without a receiver
     * @param error what ended the run early (the sender's failure before the receiver's), or null
     * @param interrupted whether an interrupt stopped the run before its window's end
     */
    RawResult result(RawRun.TxEnd tx, Optional<NicCounters.Delta> txNic, RawRun.RxEnd rx, SteeringSetup steering,
                     Optional<NicCounters.Delta> rxNic, Throwable error, boolean interrupted) {
        long measuredNanos = measuredNanos(tx, rx, error != null || interrupted);
        List<String> reasons = new ArrayList<>();
        Optional<String> message = Optional.empty();
        if (error != null) {
            message = Optional.of(error.getMessage() == null ? error.toString() : error.getMessage());
            reasons.add("the run ended early: " + message.get());
        }
        if (tx != null && tx.sender().refusals() > 0) {
            reasons.add("the kernel refused " + tx.sender().refusals()
                    + " transmissions (ENOBUFS) from the TX ring; each dropped a frame");
        }
        List<RawStreamResult> out = new ArrayList<>();
        for (int i = 0; i < spec.etherTypes().size(); i++) {
            TxStream t = tx == null ? null : tx.streams()[i];
            RxStream r = rx == null ? null : rx.receiver().streams()[i];
            String name = String.format(Locale.ROOT, "stream %d (ethertype 0x%04x)", i, spec.etherTypes().get(i));
            OptionalLong lost = OptionalLong.empty();
            OptionalLong warmupLost = OptionalLong.empty();
            if (t != null && r != null) {
                lost = OptionalLong.of(Math.max(0, t.sentByPhase[WINDOW] - r.distinctByPhase[WINDOW]));
                warmupLost = OptionalLong.of(Math.max(0, t.sentByPhase[WARMUP] - r.distinctByPhase[WARMUP]));
                if (lost.getAsLong() > 0) {
                    // both ends are linerate's: frames its own ring dropped are the receiver's loss, not the link's
                    reasons.add(String.format(Locale.ROOT, "%s: lost %d of %d frames in the measured window%s", name,
                            lost.getAsLong(), t.sentByPhase[WINDOW], r.kernel[1] > 0
                                    ? " (the receiver's own RX ring dropped frames, see below: not the link's loss)" : ""));
                }
            }
            if (t != null && t.sentByPhase[WINDOW] == 0 && error == null) {
                reasons.add(name + ": no frame was sent in the measured window");
            }
            if (t == null && r.distinctByPhase[WINDOW] == 0 && error == null) {
                reasons.add(name + ": no frame of a sender's measured window arrived");
            }
            if (r != null && r.kernel[1] > 0) {
                reasons.add(String.format(Locale.ROOT, "%s: the RX ring dropped %d frames (PACKET_STATISTICS): linerate's "
                        + "receiver fell behind%s", name, r.kernel[1], t != null && tx.loop().credit().active() ? ""
                        : t != null ? " (the sender ran unpaced)" : ""));
            }
            out.add(new RawStreamResult(i, spec.etherTypes().get(i), spec.frameSize(), steering.queue(i),
                    Optional.ofNullable(t).map(x -> txPart(x, measuredNanos)),
                    Optional.ofNullable(r).map(x -> rxPart(x, measuredNanos)), lost, warmupLost));
        }
        Optional<RawSenderReport> senderReport = Optional.ofNullable(tx).map(x ->
                new RawSenderReport(x.loop().cpuNanos(), x.loop().retries(), x.sender().refusals(), txNic, pacing(x, rx)));
        Optional<RawReceiverReport> receiverReport = Optional.ofNullable(rx).map(x -> {
            Timestamping ts = x.receiver().timestamping();
            List<StampInterval> stamps = ts == Timestamping.NONE ? List.of() : x.receiver().stamps().intervals(spec.frameSize());
            return new RawReceiverReport(x.receiver().cpuNanos(), ts, steering.report(), rxNic, stamps);
        });
        return new RawResult(spec, out, measuredNanos, senderReport, receiverReport, reasons.isEmpty(), reasons, message,
                interrupted);
    }

    /** What paced the sender: the receiver's credit where it had one, else the rate, else nothing. */
    private RawPacing pacing(RawRun.TxEnd tx, RawRun.RxEnd rx) {
        ReceiverCredit c = tx.loop().credit();
        if (!c.active()) {
            return RawPacing.withoutCredit(spec.rateBitsPerSecond());
        }
        RawPacing.Governor g = spec.rateBitsPerSecond() > 0 && c.waits() == 0 ? RawPacing.Governor.RATE : RawPacing.Governor.CREDIT;
        return new RawPacing(g, c.limit(), c.ringFrames(), rx.receiver().ringBytes(), c.waits(), c.maxInFlight());
    }

    /**
     * The measured window is [measureStart, end): a frame is in it when its batch left inside it,
     * and the rate is the window's frames over the window's length (a run cut short by an error
     * ends at its last send). The span from the first to the last send would leave out the last
     * batch's interval and overstate the rate by one batch. Without a sender, the window is known
     * only from the frames' phase: its length is the time over which they arrived.
     */
    private long measuredNanos(RawRun.TxEnd tx, RawRun.RxEnd rx, boolean endedEarly) {
        if (tx == null) {
            return rx.receiver().windowArrivalNanos();
        }
        long windowEnd = !endedEarly ? schedule.end() : Math.min(schedule.end(), tx.loop().lastSendNanos());
        return tx.loop().sentInWindow() ? Math.max(0, windowEnd - schedule.measureStart()) : 0;
    }

    private RawStreamTx txPart(TxStream t, long measuredNanos) {
        long frameSize = spec.frameSize();
        long sent = t.sentByPhase[WINDOW];
        return new RawStreamTx(new FrameCount(sent, sent * frameSize), new FrameCount(t.nextSeq, t.nextSeq * frameSize),
                Rates.perSecond(sent, measuredNanos), Rates.bitsPerSecond(sent * frameSize, measuredNanos));
    }

    /** The window's frames that arrived, over the same window; per-frame RX stamps form the rate buckets. */
    private static RawStreamRx rxPart(RxStream r, long measuredNanos) {
        long got = r.distinctByPhase[WINDOW];
        long gotBytes = r.bytesByPhase[WINDOW];
        return new RawStreamRx(new FrameCount(got, gotBytes), new FrameCount(r.frames, r.bytes),
                r.reorderedByPhase[WINDOW], r.duplicatesByPhase[WINDOW], r.foreign,
                new RingStatistics(r.kernel[0], r.kernel[1]),
                Rates.perSecond(got, measuredNanos), Rates.bitsPerSecond(gotBytes, measuredNanos));
    }
}
