package io.linerate.afpacket;
import io.linerate.core.Rates;
import java.util.List;

/**
 * The Ethernet arithmetic between what linerate counts and what the wire carries. linerate's frame
 * sizes are L2 without the FCS (destination MAC to the end of the payload), as AF_PACKET sends
 * them; on the wire each frame also takes a preamble (7 bytes), a start frame delimiter (1), the
 * FCS (4) and the minimum inter-frame gap (12): {@value #WIRE_OVERHEAD_BYTES} bytes more (IEEE 802.3
 * clauses 3.1.1 and 4.4.2). So a link of {@code S} bit/s carries at most
 * {@code S / ((size + 24) × 8)} frames/s of {@code size} bytes: 14 880 952 frames/s of 60 bytes at
 * 10 Gbit/s. Rates are decimal bit/s; frame sizes bytes.
 */
public final class EthernetWire {
    /** Preamble, bytes. */
    public static final int PREAMBLE_BYTES = 7;
    /** Start frame delimiter, bytes. */
    public static final int SFD_BYTES = 1;
    /** Frame check sequence, bytes: counted in RFC 2544's frame sizes, not in linerate's. */
    public static final int FCS_BYTES = 4;
    /** Minimum inter-frame gap, bytes (96 bit times). */
    public static final int INTER_FRAME_GAP_BYTES = 12;
    /** What each frame adds on the wire to its L2 size without FCS: 7 + 1 + 4 + 12 = 24 bytes. */
    public static final int WIRE_OVERHEAD_BYTES = PREAMBLE_BYTES + SFD_BYTES + FCS_BYTES + INTER_FRAME_GAP_BYTES;
    /** RFC 2544's frame sizes for Ethernet (section 9.1), FCS included: 64 … 1518 bytes. */
    public static final List<Integer> RFC2544_FRAME_SIZES = List.of(64, 128, 256, 512, 1024, 1280, 1518);
    /** The same frames as linerate sizes them, without the 4-byte FCS: 60 … 1514 bytes. */
    public static final List<Integer> RFC2544_FRAME_SIZES_WITHOUT_FCS = List.of(60, 124, 252, 508, 1020, 1276, 1514);

    private EthernetWire() {}

    /**
     * @param linkBitsPerSecond the link's speed, bit/s, more than 0
     * @param frameSize L2 bytes without FCS, 1 or more
     * @return the most frames/s the link carries: {@code linkBitsPerSecond / ((frameSize + 24) × 8)}
     * @throws IllegalArgumentException naming a value out of range
     */
    public static double lineRateFramesPerSecond(long linkBitsPerSecond, int frameSize) {
        if (linkBitsPerSecond <= 0) {
            throw new IllegalArgumentException("link speed " + linkBitsPerSecond + " bit/s is out of range; allowed: more than 0");
        }
        return linkBitsPerSecond / (wireBytes(frameSize) * 8.0);
    }

    /**
     * @param l2BitsPerSecond bit/s at L2 (frame bytes without FCS × 8), 0 or more
     * @param frameSize L2 bytes without FCS, 1 or more
     * @return frames/s: {@code l2BitsPerSecond / (frameSize × 8)}
     */
    public static double framesPerSecond(double l2BitsPerSecond, int frameSize) {
        checkSize(frameSize);
        return l2BitsPerSecond / (frameSize * 8.0);
    }

    /**
     * @param framesPerSecond frames/s
     * @param frameSize L2 bytes without FCS, 1 or more
     * @return the bit/s those frames take on the wire (L1): {@code framesPerSecond × (frameSize + 24) × 8}
     */
    public static double l1BitsPerSecond(double framesPerSecond, int frameSize) {
        return framesPerSecond * wireBytes(frameSize) * 8.0;
    }

    /**
     * @param l2BitsPerSecond bit/s at L2 (frame bytes without FCS × 8)
     * @param frameSize L2 bytes without FCS, 1 or more
     * @param linkBitsPerSecond the link's speed, bit/s, more than 0
     * @return the frames/s of {@code l2BitsPerSecond} as a percentage of the link's line rate at that size
     *     ({@link #lineRateFramesPerSecond}): {@code l2 × (size + 24) / (size × link) × 100}
     */
    public static double percentOfLineRate(double l2BitsPerSecond, int frameSize, long linkBitsPerSecond) {
        return 100.0 * framesPerSecond(l2BitsPerSecond, frameSize) / lineRateFramesPerSecond(linkBitsPerSecond, frameSize);
    }

    /** @return {@code frameSize + 24}: the bytes one frame takes on the wire */
    public static int wireBytes(int frameSize) {
        checkSize(frameSize);
        return frameSize + WIRE_OVERHEAD_BYTES;
    }

    private static void checkSize(int frameSize) {
        if (frameSize < 1) {
            throw new IllegalArgumentException("frame size " + frameSize + " bytes is out of range; allowed: 1 or more");
        }
    }
}
