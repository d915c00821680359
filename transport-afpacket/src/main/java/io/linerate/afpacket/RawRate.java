package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * Frames one end counted in an interval and the rates they make.
 *
 * @param frames frames counted, all streams
 * @param framesPerSecond frames / interval length; empty for an interval of no length
 * @param bitsPerSecond L2 bit/s, frames × frame size × 8 / interval length
 */
public record RawRate(long frames, OptionalDouble framesPerSecond, OptionalDouble bitsPerSecond) {}
