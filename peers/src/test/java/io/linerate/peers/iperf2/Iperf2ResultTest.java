package io.linerate.peers.iperf2;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a UDP result reads a server report: loss from the report's datagram counts, never its bytes over the payload. */
class Iperf2ResultTest {
    private static Iperf2Result result(int payload, long sent, Iperf2ServerReport r) {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(payload).duration(Duration.ofSeconds(1)).build();
        return new Iperf2Result(spec, "127.0.0.1:5001", Iperf2HeaderVariant.SEQ64,
                new Iperf2Result.Local(sent * payload, sent, 1_000_000_000L), Optional.of(r), "");
    }

    @Test
    void serverThatTruncatesToItsLengthLosesNothingByItsBytes() {
        // 625 datagrams of 2000 bytes sent; the server lost 3 and read 1470 bytes of each of the other 622
        Iperf2ServerReport rep = new Iperf2ServerReport(Iperf2HeaderVariant.HEADER_VERSION1, 622L * 1470, 1_000_000, 3, 0, 625, 10);
        Iperf2Result r = result(2000, 625, rep);
        assertThat(r.received()).isEqualTo(622);
        assertThat(r.lost()).isEqualTo(3);
        assertThat(r.notes()).singleElement().asString()
                .contains("the server read only 1470 bytes of each 2000-byte datagram")
                .contains("its 914340 bytes for 622 datagrams received");
        // the receiver's loss is the server's own figure, reported back: 3 errors of 625 datagrams
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("udp4_lost_pct")).singleElement()
                .satisfies(m -> assertThat(m.host()).isEqualTo("remote"))
                .satisfies(m -> assertThat(m.value()).isEqualTo(100.0 * 3 / 625));
        // the server's goodput is what it read: 914,340 bytes in 1 s
        assertThat(r.metrics()).filteredOn(m -> m.name().equals("udp4_mbps") && m.host().equals("remote"))
                .singleElement().satisfies(m -> assertThat(m.value()).isEqualTo(914_340 * 8 / 1e6));
    }

    @Test
    void serverThatReadsWholeDatagramsNeedsNoNote() {
        Iperf2ServerReport rep = new Iperf2ServerReport(Iperf2HeaderVariant.HEADER_VERSION1, 98L * 1000, 1_000_000, 2, 1, 100, 10);
        Iperf2Result r = result(1000, 100, rep);
        assertThat(r.received()).isEqualTo(98);
        assertThat(r.lost()).isEqualTo(2);
        assertThat(r.notes()).isEmpty();
    }

    @Test
    void serverWhoseTotalDiffersFromWhatWasSentIsNoted() {
        // the server counts 99 in all (say the first datagram never came and it started from the second's id)
        Iperf2ServerReport rep = new Iperf2ServerReport(Iperf2HeaderVariant.HEADER_VERSION1, 97L * 1000, 1_000_000, 2, 0, 99, 10);
        Iperf2Result r = result(1000, 100, rep);
        assertThat(r.received()).isEqualTo(97);
        assertThat(r.lost()).isEqualTo(3);
        assertThat(r.local().datagrams()).isEqualTo(r.received() + r.lost());
        assertThat(r.notes()).singleElement().asString().startsWith("loss: linerate counts 3 of the 100 datagrams it sent lost");
    }

    @Test
    void aUdpRunWithoutTheServersReportHasNoMetricsToGate() {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.UDP).payloadBytes(1000).duration(Duration.ofSeconds(1)).build();
        Iperf2Result r = new Iperf2Result(spec, "127.0.0.1:5001", Iperf2HeaderVariant.SEQ64,
                new Iperf2Result.Local(100_000, 100, 1_000_000_000L), Optional.empty(), "");
        assertThat(r.invalidReasons()).containsExactly("the iperf 2 server sent no report: loss is unknown");
        // as with every invalid result: its KTAP, JSON and the gate see no figure of it, not even the sender's
        assertThat(r.metrics()).isEmpty();
    }
}
