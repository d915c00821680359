package io.linerate.afpacket;

import io.linerate.core.DatagramHeader;
import io.linerate.core.Rates;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Turns what the loops counted into a {@link RawResult}, after both threads ended: per-stream
 * counts of each end, loss where both ends ran, rates over the measured window, and validity with
 * its reasons.
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
     * @param error what ended the run early (the sender's failure before the receiver's), or null
     */
    RawResult result(TxStream[] tx, SendLoop sendLoop, FrameSender sender, Optional<NicCounters.Delta> txNic,
                     FrameReceiver receiver, SteeringSetup steering, Optional<NicCounters.Delta> rxNic, Throwable error) {
        // The measured window is [measureStart, end): a frame is in it when its batch left inside
        // it, and the rate is the window's frames over the window's length (a run cut short by an
        // error ends at its last send). The span from the first to the last send would leave
        // out the last batch's interval and overstate the rate by one batch.
        long windowEnd = error == null ? schedule.end() : Math.min(schedule.end(), sendLoop.lastSendNanos());
        long measuredNanos = sendLoop.sentInWindow() ? Math.max(0, windowEnd - schedule.measureStart()) : 0;
        List<String> reasons = new ArrayList<>();
        Optional<String> message = Optional.empty();
        if (error != null) {
            message = Optional.of(error.getMessage() == null ? error.toString() : error.getMessage());
            reasons.add("the run ended early: " + message.get());
        }
        if (sender.refusals() > 0) {
            reasons.add("the kernel refused " + sender.refusals() + " transmissions (ENOBUFS) from the TX ring; each dropped a frame");
        }
        int frameSize = spec.frameSize();
        List<RawStreamResult> out = new ArrayList<>();
        RxStream[] rx = receiver.streams();
        for (int i = 0; i < tx.length; i++) {
            TxStream t = tx[i];
            RxStream r = rx[i];
            String name = String.format(Locale.ROOT, "stream %d (ethertype 0x%04x)", t.id, t.etherType);
            long sent = t.sentByPhase[WINDOW];
            long got = r.distinctByPhase[WINDOW];
            long lost = Math.max(0, sent - got);
            long warmupLost = Math.max(0, t.sentByPhase[WARMUP] - r.distinctByPhase[WARMUP]);
            if (sent == 0 && error == null) {
                reasons.add(name + ": no frame was sent in the measured window");
            }
            if (lost > 0) {
                reasons.add(String.format(Locale.ROOT, "%s: lost %d of %d frames in the measured window", name, lost, sent));
            }
            if (r.kernel[1] > 0) {
                reasons.add(String.format(Locale.ROOT, "%s: the RX ring dropped %d frames (PACKET_STATISTICS)", name, r.kernel[1]));
            }
            RawStreamTx txPart = new RawStreamTx(new FrameCount(sent, sent * frameSize),
                    new FrameCount(t.nextSeq, t.nextSeq * frameSize),
                    Rates.perSecond(sent, measuredNanos), Rates.bitsPerSecond(sent * frameSize, measuredNanos));
            // the window's frames that arrived, over the same window; per-frame RX stamps form the
            // rate buckets of the intervals
            long gotBytes = r.bytesByPhase[WINDOW];
            RawStreamRx rxPart = new RawStreamRx(new FrameCount(got, gotBytes), new FrameCount(r.frames, r.bytes),
                    r.reorderedByPhase[WINDOW], r.duplicatesByPhase[WINDOW], r.foreign,
                    new RingStatistics(r.kernel[0], r.kernel[1]),
                    Rates.perSecond(got, measuredNanos), Rates.bitsPerSecond(gotBytes, measuredNanos));
            out.add(new RawStreamResult(t.id, t.etherType, frameSize, steering.queue(i), Optional.of(txPart), Optional.of(rxPart),
                    OptionalLong.of(lost), OptionalLong.of(warmupLost)));
        }
        Timestamping ts = receiver.timestamping();
        List<StampInterval> stamps = ts == Timestamping.NONE ? List.of() : receiver.stamps().intervals(frameSize);
        RawSenderReport senderReport = new RawSenderReport(sendLoop.cpuNanos(), sendLoop.retries(), sender.refusals(), txNic);
        RawReceiverReport receiverReport = new RawReceiverReport(receiver.cpuNanos(), ts, steering.report(), rxNic, stamps);
        return new RawResult(spec, out, measuredNanos, Optional.of(senderReport), Optional.of(receiverReport),
                reasons.isEmpty(), reasons, message);
    }
}
