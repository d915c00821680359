package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Bound;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TcpMss;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** An interval's TCP_INFO figures in the text line (iperf3's Retr and Cwnd) and in the JSON interval object. */
class TcpIntervalOutputTest {
    /** 404 KiB of window, iperf3's " 404 KBytes"; rates 100 Mbit/s of pacing and none of delivery. */
    private static final TcpIntervalSample FIGURES = new TcpIntervalSample(3, 404 * 1024, 631, 850, 12_500_000, -1);

    @Test
    void aTcpIntervalLineEndsWithRetrAndCwnd() {
        // 125,000,000 bytes in one second: 1.00 Gbit/s
        IntervalSample s = new IntervalSample(0, 1_000_000_000L, 125_000_000, 0, 0, false).withTcp(FIGURES);
        assertThat(TransferFormat.intervalLine(s, false))
                .isEqualTo(" 0.00- 1.00 sec  125000000 Bytes  1.00 Gbits/sec  Retr   3  Cwnd  404 KBytes");
    }

    @Test
    void theWarmUpMarkStaysLast() {
        IntervalSample s = new IntervalSample(0, 500_000_000L, 1_000_000, 0, 0, true)
                .withTcp(new TcpIntervalSample(1234, -1, -1, -1, -1, -1));
        assertThat(TransferFormat.intervalLine(s, false))
                .isEqualTo(" 0.00- 0.50 sec  1000000 Bytes  16.00 Mbits/sec  Retr 1234  Cwnd n/a  (omitted)");
    }

    @Test
    void anIntervalWithoutFiguresIsWrittenAsBefore() {
        IntervalSample s = new IntervalSample(0, 1_000_000_000L, 125_000_000, 0, 0, false);
        assertThat(TransferFormat.intervalLine(s, false)).isEqualTo(" 0.00- 1.00 sec  125000000 Bytes  1.00 Gbits/sec");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "-1|n/a",
        "0|0.00 Bytes",
        "1023|1023 Bytes",
        // 1536 / 1024 = 1.5
        "1536|1.50 KBytes",
        // 65483 / 1024 = 63.948...
        "65483|63.9 KBytes",
        "413696|' 404 KBytes'",
        // 1.5 MiB
        "1572864|1.50 MBytes",
        // 10 MiB: two digits before the point, one after
        "10485760|10.0 MBytes",
        // 2 TiB stays in GBytes, iperf3's largest unit here
        "2199023255552|2048 GBytes"})
    void cwndIsWrittenInIperf3sAdaptiveByteUnits(long bytes, String text) {
        assertThat(TransferFormat.cwndText(bytes)).isEqualTo(text);
    }

    @Test
    void jsonIntervalsCarryEveryFigureAndOnlyWhereRead() throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).bound(Bound.duration(Duration.ofSeconds(2)))
                .warmup(Duration.ZERO).build();
        List<IntervalSample> intervals = List.of(
                new IntervalSample(0, 1_000_000_000L, 1_000_000, 0, 0, false).withTcp(FIGURES),
                new IntervalSample(1_000_000_000L, 2_000_000_000L, 1_000_000, 0, 0, false));
        TransferResult r = TransferResult.builder(spec).bytesSent(2_000_000).messagesSent(1640).bytesReceived(2_000_000)
                .window(0, 2_000_000_000L).windowBytesSent(2_000_000).windowBytesReceived(2_000_000)
                .intervals(intervals).options(new AppliedOptions(0, 0, 0, 131072, 0, 131072, false, false,
                        Optional.of(new TcpMss(AddressFamily.IPV4, 65536, 12))))
                .senderAllocatedBytes(0).receiverAllocatedBytes(0).build();
        JsonNode json = new ObjectMapper().readTree(ResultJson.transfer(r).toJson()).get("intervals");
        JsonNode first = json.get(0);
        assertThat(first.get("retransmits").asLong()).isEqualTo(3);
        assertThat(first.get("cwnd_bytes").asLong()).isEqualTo(413_696);
        assertThat(first.get("tcpi_rtt").asLong()).isEqualTo(631);
        assertThat(first.get("tcpi_rttvar").asLong()).isEqualTo(850);
        assertThat(first.get("tcpi_pacing_rate").asLong()).isEqualTo(12_500_000);
        assertThat(first.get("tcpi_delivery_rate").asLong()).isEqualTo(-1);
        assertThat(first.get("omitted").asBoolean()).isFalse();
        assertThat(json.get(1).has("retransmits")).as("an interval whose socket was not read").isFalse();
        assertThat(json.get(1).has("cwnd_bytes")).isFalse();
    }

    @Test
    void figuresOutOfRangeAreRejectedByName() {
        assertThatThrownBy(() -> new TcpIntervalSample(-1, 0, 0, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retransmits -1");
        assertThatThrownBy(() -> new TcpIntervalSample(0, -2, 0, 0, 0, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cwndBytes -2");
    }
}
