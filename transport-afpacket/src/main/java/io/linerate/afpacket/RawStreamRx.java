package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * What the receiver counted on one stream. Each frame carries the phase of the run in which it
 * was sent ({@link io.linerate.core.DatagramHeader}), so the window covers exactly the distinct
 * frames sent in the measured window, whenever they arrived.
 *
 * @param window distinct frames of the measured window received, and their bytes
 * @param total frames received on the stream's socket with its header, warm-up and duplicates
 *     included, and their bytes (what the RX interface's counters see of the stream)
 * @param reordered window frames that arrived after a higher sequence number
 * @param duplicates window frames that arrived more than once
 * @param foreignFrames frames of the stream's ethertype that did not carry its header
 * @param ring the socket's PACKET_STATISTICS over the run
 * @param framesPerSecond window frames per second over {@link RawResult#measuredNanos()}: the
 *     sender's measured window when the sender is in the run, else the time the window's frames
 *     took to arrive; empty for a window of no length
 * @param bitsPerSecond window bytes × 8 per second on the same basis
 */
public record RawStreamRx(FrameCount window, FrameCount total, long reordered, long duplicates, long foreignFrames,
                          RingStatistics ring, OptionalDouble framesPerSecond, OptionalDouble bitsPerSecond) {}
