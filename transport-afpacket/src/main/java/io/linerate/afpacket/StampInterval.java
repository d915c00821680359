package io.linerate.afpacket;

import java.util.OptionalDouble;

/**
 * One rate bucket formed from per-frame RX timestamps: frames whose stamp fell in
 * {@code [startSeconds, endSeconds)} after the first frame's stamp. Buckets are as long as the
 * spec's interval; the last one ends at the last frame's stamp. Frames of every stream, warm-up
 * included.
 *
 * @param startSeconds start, seconds after the first frame's RX stamp
 * @param endSeconds end, seconds after the first frame's RX stamp
 * @param frameSize bytes per frame; the rates are for this size
 * @param frames frames stamped in the bucket
 * @param framesPerSecond frames / bucket length; empty for a bucket of no length
 * @param bitsPerSecond L2 bit/s on the same basis
 */
public record StampInterval(double startSeconds, double endSeconds, int frameSize, long frames,
                            OptionalDouble framesPerSecond, OptionalDouble bitsPerSecond) {}
