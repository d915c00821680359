package io.linerate.afpacket;

/**
 * Frames and their bytes (L2, destination MAC to the end of the payload, FCS excluded).
 *
 * @param frames frames counted
 * @param bytes bytes of those frames
 */
public record FrameCount(long frames, long bytes) {
    /** No frames. */
    public static final FrameCount ZERO = new FrameCount(0, 0);
}
