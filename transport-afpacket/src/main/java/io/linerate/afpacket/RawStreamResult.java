package io.linerate.afpacket;

import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one stream (one ethertype) of a raw transfer counted, by each end that was in the run.
 * Bytes are L2 frame bytes without FCS; every rate is for frames of {@code frameSize} bytes.
 *
 * @param streamId the stream id in every frame's header
 * @param etherType the stream's ethertype
 * @param frameSize bytes per frame
 * @param queue the RX queue a Flow Director rule steered the stream to, or -1 without steering
 * @param tx what the sender counted; empty in a run without a sender (RX only)
 * @param rx what the receiver counted; empty in a run without a receiver (TX only)
 * @param lost window frames sent minus distinct window frames received (trailing loss included);
 *     empty unless both ends are in the run: loss cannot be known from one end (see
 *     {@link #lossPercent()} for a window without frames)
 * @param warmupLost frames sent in the warm-up that never arrived (not a validity criterion);
 *     empty unless both ends are in the run
 */
public record RawStreamResult(int streamId, int etherType, int frameSize, long queue,
                              Optional<RawStreamTx> tx, Optional<RawStreamRx> rx,
                              OptionalLong lost, OptionalLong warmupLost) {

    /**
     * @return lost frames as a percentage of the frames sent in the measured window; empty when
     *     loss is unknown (one end only) or when none was sent (the loss of no frames is not 0 %,
     *     it does not exist)
     */
    public OptionalDouble lossPercent() {
        long sent = tx.map(t -> t.window().frames()).orElse(0L);
        return lost.isEmpty() || sent == 0 ? OptionalDouble.empty() : OptionalDouble.of(100.0 * lost.getAsLong() / sent);
    }
}
