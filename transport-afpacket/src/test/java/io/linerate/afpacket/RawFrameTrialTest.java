package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.linerate.core.Clock;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.TrialOutcome;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** A raw run's counts turned into a search trial's outcome, from results built by hand. */
class RawFrameTrialTest {
    private static final RawTransferSpec SPEC = RawTransferSpec.builder("a0", "b0").etherTypes(List.of(0x88b5, 0x88b6))
            .frameSize(60).build();

    private static RawStreamResult stream(int id, int etherType, long sent, long distinct, long ringDrops) {
        RawStreamTx tx = new RawStreamTx(new FrameCount(sent, sent * 60), new FrameCount(sent, sent * 60),
                OptionalDouble.empty(), OptionalDouble.empty());
        RawStreamRx rx = new RawStreamRx(new FrameCount(distinct, distinct * 60), new FrameCount(distinct, distinct * 60), 0, 0, 0,
                new RingStatistics(distinct + ringDrops, ringDrops), OptionalDouble.empty(), OptionalDouble.empty());
        return new RawStreamResult(id, etherType, 60, -1, Optional.of(tx), Optional.of(rx),
                OptionalLong.of(Math.max(0, sent - distinct)), OptionalLong.of(0));
    }

    private static RawResult result(List<RawStreamResult> streams, Optional<String> error) {
        return new RawResult(SPEC, streams, 2_000_000_000L,
                Optional.of(new RawSenderReport(0, 0, 0, Optional.empty())),
                Optional.of(new RawReceiverReport(0, Timestamping.NONE, RawSteering.notRequested(), Optional.empty(), List.of())),
                false, List.of("stands for whatever the run found"), error);
    }

    @Test
    void lossIsSentMinusDistinctReceivedAndRingDropsAreValidityFailures() throws TransferException {
        // stream 0: 1000 sent, 990 distinct received (10 lost), its ring dropped 4; stream 1: 500 sent, 500 received
        RawResult r = result(List.of(stream(0, 0x88b5, 1000, 990, 4), stream(1, 0x88b6, 500, 500, 0)), Optional.empty());
        TrialOutcome o = RawFrameTrial.outcome(1_000_000, r);

        assertThat(o.offeredBitsPerSecond()).isEqualTo(1_000_000);
        assertThat(o.sent()).isEqualTo(1500);
        assertThat(o.lost()).isEqualTo(10);
        assertThat(o.received()).isEqualTo(1490);
        // the sender's rate: 1500 frames × 60 B × 8 = 720,000 bit over 2 s = 360,000 bit/s
        assertThat(o.achievedBitsPerSecond()).isCloseTo(360_000, within(1e-6));
        assertThat(o.validityFailures()).containsExactly(
                "stream 0 (ethertype 0x88b5): the RX ring dropped 4 frames (PACKET_STATISTICS)");
    }

    @Test
    void aRunThatEndedEarlyIsNoTrial() {
        RawResult r = result(List.of(stream(0, 0x88b5, 10, 10, 0), stream(1, 0x88b6, 10, 10, 0)), Optional.of("b0 went down"));
        assertThatThrownBy(() -> RawFrameTrial.outcome(5_000_000, r)).isInstanceOf(TransferException.class)
                .hasMessage("the raw trial at 5000000 bit/s ended early: b0 went down");
    }

    @Test
    void eachTrialTakesTheSearchsRateDurationWarmupAndInterval() {
        SearchSpec search = SearchSpec.builder().trial(Duration.ofMillis(500)).warmup(Duration.ofMillis(50)).build();
        RawTransferSpec s = new RawFrameTrial(SPEC, search, null, Clock.system()).specAt(42_000_000);
        assertThat(s.rateBitsPerSecond()).isEqualTo(42_000_000);
        assertThat(s.duration()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.warmup()).isEqualTo(Duration.ofMillis(50));
        // a tenth of the trial, the search's default interval
        assertThat(s.interval()).isEqualTo(Duration.ofMillis(50));
        assertThat(s.etherTypes()).containsExactly(0x88b5, 0x88b6);
        assertThat(s.frameSize()).isEqualTo(60);
    }

    @Test
    void aMessageIsOneFrameInL2Bits() {
        // 60 B frames without FCS: 60 × 8 = 480 bit, so a 500 ms trial quantises the achieved rate in steps of 960 bit/s
        SearchSpec search = SearchSpec.builder().trial(Duration.ofMillis(500)).build();
        RawFrameTrial t = new RawFrameTrial(SPEC, search, null, Clock.system());
        assertThat(t.messageBits()).isEqualTo(480);
        assertThat(search.messageShortfallBitsPerSecond(t.messageBits())).isEqualTo(960);
    }

    @Test
    void aSpecWithOneEndIsRefused() {
        RawTransferSpec txOnly = RawTransferSpec.txOnly("a0").destinationMac(new byte[] {2, 0, 0, 0, 0, 2}).build();
        assertThatThrownBy(() -> new RawFrameTrial(txOnly, SearchSpec.builder().build(), null, Clock.system()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a rate search over raw frames needs both ends (a TX and an RX interface) to count loss; "
                        + "got TX a0 only");
    }
}
