package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * What one stream (one ethertype) of a raw transfer counted. "Measured" counts cover frames whose
 * send time fell in the measured window (after the warm-up); "total" counts cover every frame,
 * warm-up included, and are what interface counters see. Bytes are L2 frame bytes without FCS.
 * Rates are decimal, at L2, for frames of {@code frameSize} bytes.
 *
 * @param streamId the stream id in every frame's header
 * @param etherType the stream's ethertype
 * @param frameSize bytes per frame; every rate is for this size
 * @param txFrames frames sent in the measured window
 * @param txBytes bytes sent in the measured window
 * @param rxFrames distinct frames of the measured window received
 * @param rxBytes bytes of those frames
 * @param lost {@code txFrames − rxFrames} (sent minus distinct received, trailing loss included); 0
 *     by that identity when no frame was sent in the window, where there is no loss to speak of
 *     (see {@link #lossPercent()})
 * @param reordered measured frames that arrived after a higher sequence number
 * @param duplicates measured frames that arrived more than once
 * @param txFramesTotal frames sent, warm-up included
 * @param txBytesTotal bytes sent, warm-up included
 * @param rxFramesTotal frames received on the stream's socket with its header, warm-up and duplicates included
 * @param rxBytesTotal bytes of those frames
 * @param warmupLost frames sent during the warm-up that never arrived (not a validity criterion)
 * @param kernelPackets frames the socket saw (PACKET_STATISTICS tp_packets, drops included), accumulated
 * @param kernelDrops frames the socket's ring had no room for (PACKET_STATISTICS tp_drops), accumulated
 * @param foreignFrames frames of the ethertype that did not carry this stream's header
 * @param txFramesPerSecond frames/s sent in the measured window, from the sender's clock readings
 * @param txBitsPerSecond L2 bit/s sent in the measured window
 * @param rxFramesPerSecond frames/s received, from the per-frame RX stamps of the first and last
 *     measured frame (or the sender's window when frames carried no stamp)
 * @param rxBitsPerSecond L2 bit/s received, on the same interval
 * @param queue the RX queue a Flow Director rule steered the stream to, or -1 without steering
 */
public record RawStreamResult(int streamId, int etherType, int frameSize,
                              long txFrames, long txBytes, long rxFrames, long rxBytes,
                              long lost, long reordered, long duplicates,
                              long txFramesTotal, long txBytesTotal, long rxFramesTotal, long rxBytesTotal,
                              long warmupLost, long kernelPackets, long kernelDrops, long foreignFrames,
                              OptionalDouble txFramesPerSecond, OptionalDouble txBitsPerSecond,
                              OptionalDouble rxFramesPerSecond, OptionalDouble rxBitsPerSecond, long queue) {

    /**
     * @return lost frames as a percentage of the frames sent in the measured window; empty when
     *     none was sent (the loss of no frames is not 0 %, it does not exist)
     */
    public OptionalDouble lossPercent() {
        return txFrames == 0 ? OptionalDouble.empty() : OptionalDouble.of(100.0 * lost / txFrames);
    }
}
