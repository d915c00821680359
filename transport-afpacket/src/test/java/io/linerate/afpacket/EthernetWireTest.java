package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** L1/L2 arithmetic against values worked out by hand from 24 bytes of wire overhead per frame. */
class EthernetWireTest {
    private static final long TEN_G = 10_000_000_000L;
    private static final long ONE_G = 1_000_000_000L;

    @Test
    void lineRateAtTenGigabit() {
        // 10e9 / ((60 + 24) × 8) = 10e9 / 672 = 14,880,952.38 frames/s: the familiar 14.88 Mpps
        assertThat(EthernetWire.lineRateFramesPerSecond(TEN_G, 60)).isCloseTo(14_880_952.38, within(0.01));
        // 10e9 / ((1514 + 24) × 8) = 10e9 / 12,304 = 812,743.82 frames/s
        assertThat(EthernetWire.lineRateFramesPerSecond(TEN_G, 1514)).isCloseTo(812_743.82, within(0.01));
        // 1e9 / 672 = 1,488,095.24 frames/s
        assertThat(EthernetWire.lineRateFramesPerSecond(ONE_G, 60)).isCloseTo(1_488_095.24, within(0.01));
    }

    @Test
    void theOverheadIsPreambleSfdFcsAndGap() {
        // 7 + 1 + 4 + 12
        assertThat(EthernetWire.WIRE_OVERHEAD_BYTES).isEqualTo(24);
        assertThat(EthernetWire.wireBytes(60)).isEqualTo(84);
        // RFC 2544's 64 … 1518 less the 4-byte FCS
        assertThat(EthernetWire.RFC2544_FRAME_SIZES_WITHOUT_FCS).containsExactly(60, 124, 252, 508, 1020, 1276, 1514);
        for (int i = 0; i < 7; i++) {
            assertThat(EthernetWire.RFC2544_FRAME_SIZES.get(i) - EthernetWire.RFC2544_FRAME_SIZES_WITHOUT_FCS.get(i))
                    .isEqualTo(EthernetWire.FCS_BYTES);
        }
    }

    @Test
    void framesL1AndPercentOfLineRate() {
        // 400,000 frames/s of 1514 bytes: L2 400,000 × 1514 × 8 = 4,844,800,000 bit/s
        double l2 = 4_844_800_000.0;
        assertThat(EthernetWire.framesPerSecond(l2, 1514)).isCloseTo(400_000, within(1e-6));
        // on the wire 400,000 × 1538 × 8 = 4,921,600,000 bit/s: 49.216 % of 10 Gbit/s
        assertThat(EthernetWire.l1BitsPerSecond(400_000, 1514)).isCloseTo(4_921_600_000.0, within(1e-3));
        assertThat(EthernetWire.percentOfLineRate(l2, 1514, TEN_G)).isCloseTo(49.216, within(1e-9));
        // 1 Gbit/s at line rate with 60-byte frames: 1,488,095.24 frames/s × 480 bit = 714,285,714.3 bit/s at L2, 100 %
        assertThat(EthernetWire.percentOfLineRate(1e9 * 60 / 84, 60, ONE_G)).isCloseTo(100.0, within(1e-9));
    }

    @Test
    void badValuesAreRefusedNamingThem() {
        assertThatThrownBy(() -> EthernetWire.lineRateFramesPerSecond(-1, 60)).hasMessageContaining("link speed -1 bit/s is out of range");
        assertThatThrownBy(() -> EthernetWire.framesPerSecond(1, 0)).hasMessageContaining("frame size 0 bytes is out of range");
    }
}
