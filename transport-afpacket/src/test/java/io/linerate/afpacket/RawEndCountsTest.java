package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.RawEndCounts;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.sink.ResultJson;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A raw result's ends as typed counts ({@link RawResult#senderCounts()}, {@link RawResult#receiverCounts()}),
 * from a result built by hand: the same numbers its JSON detail carries, which is what a peer's
 * agent sends over the wire.
 */
class RawEndCountsTest {
    private static final RawTransferSpec SPEC = RawTransferSpec.builder("a0", "b0").etherTypes(List.of(0x88b5, 0x88b6))
            .frameSize(100).build();

    private static RawStreamResult stream(int id, int etherType, long sent, long sentTotal, long got, long gotTotal, long drops) {
        RawStreamTx tx = new RawStreamTx(new FrameCount(sent, sent * 100), new FrameCount(sentTotal, sentTotal * 100),
                OptionalDouble.empty(), OptionalDouble.empty());
        RawStreamRx rx = new RawStreamRx(new FrameCount(got, got * 100), new FrameCount(gotTotal, gotTotal * 100), 0, 0, 0,
                new RingStatistics(gotTotal + drops, drops), OptionalDouble.empty(), OptionalDouble.empty());
        return new RawStreamResult(id, etherType, 100, -1, Optional.of(tx), Optional.of(rx), OptionalLong.of(sent - got),
                OptionalLong.of(0));
    }

    private static NicCounters.Delta nic(String iface, NicCounter c, long count) {
        long[] counts = new long[NicCounter.values().length];
        counts[c.ordinal()] = count;
        return new NicCounters.Delta(iface, 1_000_000_000L, counts,
                new long[NicCounter.values().length * CounterEvent.values().length], Set.of());
    }

    private static RawResult result() {
        return new RawResult(SPEC, List.of(stream(1, 0x88b5, 1000, 1200, 990, 1190, 7), stream(2, 0x88b6, 500, 600, 500, 600, 0)),
                1_000_000_000L,
                Optional.of(new RawSenderReport(1_234_000, 0, 0, Optional.of(nic("a0", NicCounter.TX_PACKETS, 1805)))),
                Optional.of(new RawReceiverReport(5_678_000, Timestamping.NONE, RawSteering.notRequested(), Optional.empty(),
                        List.of())),
                false, List.of("stream 0x88b5: 10 of 1000 frames sent in the window were lost"), Optional.empty());
    }

    @Test
    void theSenderAndTheReceiverEachGiveTheirOwnCounts() {
        RawResult r = result();
        assertThat(r.senderCounts()).contains(new RawEndCounts(true, "a0", List.of(
                new RawEndCounts.StreamCounts(0x88b5, 1000, 100_000, 1200, 0),
                new RawEndCounts.StreamCounts(0x88b6, 500, 50_000, 600, 0)), 1_234_000, OptionalLong.of(1805)));
        // the receiver's interface counters were not read: empty, not 0
        assertThat(r.receiverCounts()).contains(new RawEndCounts(false, "b0", List.of(
                new RawEndCounts.StreamCounts(0x88b5, 990, 99_000, 1190, 7),
                new RawEndCounts.StreamCounts(0x88b6, 500, 50_000, 600, 0)), 5_678_000, OptionalLong.empty()));
    }

    @Test
    void aRunWithOneEndGivesThatEndAlone() {
        RawResult both = result();
        RawResult txOnly = new RawResult(RawTransferSpec.txOnly("a0").destinationMac(new byte[] {2, 0, 0, 0, 0, 1})
                .etherTypes(SPEC.etherTypes()).frameSize(100).build(),
                both.streams().stream().map(s -> new RawStreamResult(s.streamId(), s.etherType(), s.frameSize(), s.queue(),
                        s.tx(), Optional.empty(), OptionalLong.empty(), OptionalLong.empty())).toList(),
                both.measuredNanos(), both.sender(), Optional.empty(), true, List.of(), Optional.empty());
        assertThat(txOnly.receiverCounts()).isEmpty();
        assertThat(txOnly.senderCounts()).isEqualTo(both.senderCounts());
    }

    @Test
    void theCountsAreTheNumbersOfTheJsonDetailThatAnAgentSends() throws Exception {
        RawResult r = result();
        JsonNode detail = new ObjectMapper().readTree(ResultJson.of(r).toJson()).get("detail");
        RawEndCounts tx = r.senderCounts().orElseThrow();
        RawEndCounts rx = r.receiverCounts().orElseThrow();
        for (int i = 0; i < 2; i++) {
            JsonNode s = detail.get("streams").get(i);
            assertThat(s.get("tx_frames").asLong()).isEqualTo(tx.streams().get(i).windowFrames());
            assertThat(s.get("tx_bytes").asLong()).isEqualTo(tx.streams().get(i).windowBytes());
            assertThat(s.get("tx_frames_total").asLong()).isEqualTo(tx.streams().get(i).totalFrames());
            assertThat(s.get("rx_frames").asLong()).isEqualTo(rx.streams().get(i).windowFrames());
            assertThat(s.get("rx_bytes").asLong()).isEqualTo(rx.streams().get(i).windowBytes());
            assertThat(s.get("rx_frames_total").asLong()).isEqualTo(rx.streams().get(i).totalFrames());
            assertThat(s.get("kernel_drops").asLong()).isEqualTo(rx.streams().get(i).ringDrops());
        }
        assertThat(detail.at("/cpu_ns/sender").asLong()).isEqualTo(tx.cpuNanos());
        assertThat(detail.at("/cpu_ns/receiver").asLong()).isEqualTo(rx.cpuNanos());
        assertThat(detail.at("/tx_nic/tx_packets").asLong()).isEqualTo(tx.nicPackets().getAsLong());
    }
}
