package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.linerate.core.RawTransferSpec;
import io.linerate.testsupport.VethPair;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The sender paced by the receiver's credit, at full rate across a veth pair this test creates
 * (needs root and Linux). Whatever the load, the frames in flight stay within the credit, the
 * credit within what the ring holds, and the kernel's own count of ring drops stays at 0.
 */
class CreditPacingTest {
    /** Bytes before each frame in a TPACKET_V3 block (TPACKET3_HDRLEN 68, aligned with the MAC header). */
    private static final int FRAME_HEADER = 82;

    @BeforeAll
    static void needsRawSockets() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "raw transfers need Linux");
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
    }

    private static RawTransferSpec.Builder fullRate(VethPair v, int frameSize) {
        return RawTransferSpec.builder(v.a, v.b)
                .etherTypes(List.of(0x88b5, 0x88b6))
                .frameSize(frameSize)
                .duration(Duration.ofMillis(600))
                .warmup(Duration.ofMillis(100))
                .interval(Duration.ofMillis(300))
                .hardwareTimestamps(false);
    }

    @Test
    void creditPacedRunNeverHasMoreFramesInFlightThanTheReceiversRingHolds() throws Exception {
        int frameSize = 1014;
        try (VethPair v = VethPair.create()) {
            RawResult r = RawTransfer.run(fullRate(v, frameSize).build());

            assertThat(r.error()).as("credit always came back").isEmpty();
            RawPacing p = r.sender().orElseThrow().pacing();
            assertThat(p.governed()).isEqualTo(RawPacing.Governor.CREDIT);
            assertThat(p.creditFrames()).isPositive().isLessThan(p.ringFrames());
            // what the ring's bytes could hold at most, from the kernel's layout: never below what the credit assumes
            assertThat(p.ringFrames()).isLessThanOrEqualTo(p.ringBytes() / (frameSize + FRAME_HEADER));
            assertThat(p.maxInFlight()).isPositive().isLessThanOrEqualTo(p.creditFrames());
            long sent = r.txFramesTotal().orElseThrow();
            assertThat(sent).isPositive();
            for (RawStreamResult s : r.streams()) {
                // the kernel's own witness: the ring never had to drop a frame
                assertThat(s.rx().orElseThrow().ring().drops()).as("stream %d ring drops", s.streamId()).isZero();
            }
            assertThat(r.reasons()).noneMatch(x -> x.contains("RX ring dropped"));
            String json = RawResultJson.of(r).toJson();
            assertThat(json).contains("\"governed\":\"credit\"", "\"credit_frames\":" + p.creditFrames(),
                    "\"max_in_flight\":" + p.maxInFlight());
        }
    }

    @Test
    void unpacedRunsFreeOfCreditAndSaysSo() throws Exception {
        try (VethPair v = VethPair.create()) {
            RawResult r = RawTransfer.run(fullRate(v, 1014).duration(Duration.ofMillis(200)).unpaced(true).build());

            RawPacing p = r.sender().orElseThrow().pacing();
            assertThat(p.governed()).isEqualTo(RawPacing.Governor.NONE);
            assertThat(p.credited()).isFalse();
            assertThat(p.creditWaits()).isZero();
            assertThat(RawResultJson.of(r).toJson()).contains("\"governed\":\"none\"", "\"credit_frames\":null");
        }
    }

    @Test
    void aSenderAloneHasNoCreditAndIsPacedByItsRate() throws Exception {
        try (VethPair v = VethPair.create()) {
            RawTransferSpec spec = RawTransferSpec.txOnly(v.a).destinationMac(RawTransferSpec.parseMac("02:00:00:00:00:02"))
                    .frameSize(1014).rateBitsPerSecond(10_000L * 1014 * 8).duration(Duration.ofMillis(200))
                    .warmup(Duration.ZERO).interval(Duration.ofMillis(100)).hardwareTimestamps(false).build();
            RawPacing p = RawTransfer.run(spec).sender().orElseThrow().pacing();

            assertThat(p.governed()).isEqualTo(RawPacing.Governor.RATE);
            assertThat(p.credited()).isFalse();
        }
    }
}
