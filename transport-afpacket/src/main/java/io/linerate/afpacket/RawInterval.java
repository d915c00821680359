package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * One interval of a running raw transfer, from the library's counters read together and stamped
 * right after the read (DESIGN rule 1). Times are seconds since the transfer started.
 *
 * @param startSeconds start of the interval
 * @param endSeconds end of the interval
 * @param frameSize bytes per frame; the rates are for this size
 * @param txFrames frames sent in the interval, all streams
 * @param rxFrames frames received in the interval, all streams
 * @param txFramesPerSecond frames/s sent; empty for a zero-length interval
 * @param rxFramesPerSecond frames/s received
 * @param txBitsPerSecond L2 bit/s sent
 * @param rxBitsPerSecond L2 bit/s received
 * @param omitted whether the interval lies in the warm-up (the warm-up's end is an interval boundary)
 */
public record RawInterval(double startSeconds, double endSeconds, int frameSize, long txFrames, long rxFrames,
                          OptionalDouble txFramesPerSecond, OptionalDouble rxFramesPerSecond,
                          OptionalDouble txBitsPerSecond, OptionalDouble rxBitsPerSecond, boolean omitted) {}
