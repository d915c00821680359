package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * What the sender counted on one stream. The window covers frames sent in the measured window
 * (stamped with the window's phase); the total covers every frame, warm-up included, and is what
 * interface counters see. Rates are decimal, at L2, over the measured window.
 *
 * @param window frames and bytes sent in the measured window
 * @param total frames and bytes sent, warm-up included
 * @param framesPerSecond window frames / window length, from the sender's clock readings; empty
 *     for a window of no length
 * @param bitsPerSecond window bytes × 8 / window length
 */
public record RawStreamTx(FrameCount window, FrameCount total, OptionalDouble framesPerSecond, OptionalDouble bitsPerSecond) {}
