package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.TransferResult;
import org.junit.jupiter.api.Test;

class ReceiverSocketDropsOutputTest {

    @Test
    void droppedDatagramsFollowTheLossAndAddANote() {
        TransferResult r = OutputFormatsGoldenTest.udpResult().withReceiverSocketDrops(1_890_000);
        assertThat(TransferFormat.summaryLine(r)).contains("lost 698 (13.96%, receiving socket dropped 1890000: "
                + "its buffer was full, the receiver read too slowly)  reordered 7");
        assertThat(TransferFormat.receiverNote(r)).hasValue("# receiver: the receiving socket dropped 1890000 "
                + "datagrams over the transfer because its buffer (SO_RCVBUF 212992 B) was full: linerate's receiver "
                + "was the bottleneck, not the path; raise --rcvbuf, run fewer streams, or use a less loaded host");
        assertThat(ResultJson.transfer(r).toJson())
                .contains("\"jitter_ms\":0.0040005,\"receiver_socket_drops\":1890000,");
    }

    @Test
    void withGroTheDropsAreCoalescedBuffersNotDatagrams() {
        TransferResult plain = OutputFormatsGoldenTest.udpResult();
        TransferResult gso = TransferResult.builder(plain.spec().toBuilder()
                        .io(new io.linerate.core.StreamIo(0, true, false, false)).build())
                .options(plain.options()).udp(plain.udp().orElseThrow()).build().withReceiverSocketDrops(5);
        assertThat(TransferFormat.receiverNote(gso)).hasValueSatisfying(n -> assertThat(n).startsWith(
                "# receiver: the receiving socket dropped 5 receive buffers (UDP_GRO coalesced, each of up to 64 "
                        + "datagrams) over the transfer"));
    }

    @Test
    void noDropsSayNoneAndAddNoNote() {
        TransferResult r = OutputFormatsGoldenTest.udpResult().withReceiverSocketDrops(0);
        assertThat(TransferFormat.summaryLine(r))
                .contains("lost 698 (13.96%, receiving socket dropped 0)  reordered 7");
        assertThat(TransferFormat.receiverNote(r)).isEmpty();
        assertThat(ResultJson.transfer(r).toJson()).contains("\"receiver_socket_drops\":0,");
    }

    @Test
    void unknownDropsLeaveTheOutputsAsBefore() {
        TransferResult r = OutputFormatsGoldenTest.udpResult();
        assertThat(r.udp().orElseThrow().receiverSocketDrops()).isEqualTo(-1);
        assertThat(TransferFormat.summaryLine(r)).contains("lost 698 (13.96%)  reordered 7");
        assertThat(TransferFormat.receiverNote(r)).isEmpty();
        assertThat(ResultJson.transfer(r).toJson()).doesNotContain("receiver_socket_drops");
    }

    @Test
    void tcpResultIgnoresDrops() {
        TransferResult tcp = OutputFormatsGoldenTest.tcpResult();
        assertThat(tcp.withReceiverSocketDrops(5)).isSameAs(tcp);
    }

    @Test
    void dropsBelowUnknownAreRejected() {
        TransferResult r = OutputFormatsGoldenTest.udpResult();
        assertThatThrownBy(() -> r.withReceiverSocketDrops(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("receiver socket drops -2 out of range; allowed: -1 (unknown) or 0 and above");
    }
}
