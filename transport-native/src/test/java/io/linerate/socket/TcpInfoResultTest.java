package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.IntervalSample;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TcpIntervalSample;
import io.linerate.core.TcpStats;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.MetricJson;
import io.linerate.core.sink.TransferFormat;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sender's TCP_INFO in a native stream's result: its detail JSON, its intervals and its retransmits metric. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TcpInfoResultTest {

    private static TransferResult run(TransferSpec spec) throws Exception {
        try (Transfer t = Transports.byName("native").open(spec, Clock.system())) {
            return t.run();
        }
    }

    @Test
    void aStreamCarriesTheSendersTcpInfo() throws Exception {
        TransferResult r = run(TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                .warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(300)).interval(Duration.ofMillis(100)).build());
        TcpStats t = r.tcp().orElseThrow();
        assertThat(t.windowRetransmits()).isNotNegative().isLessThanOrEqualTo(t.totalRetransmits());
        // tcpi_snd_mss and TCP_MAXSEG are both the kernel's mss_cache of the sending socket
        assertThat(t.senderMss()).isEqualTo(r.options().tcpMss().orElseThrow().read().orElseThrow().senderBytes());
        assertThat(t.cwndBytes()).isPositive();
        assertThat(t.cwndBytes() % t.senderMss()).isZero();
        assertThat(t.rttMicros()).isPositive();
        assertThat(t.receiverMss()).isPositive().isLessThanOrEqualTo(t.senderMss());
        assertThat(r.detailJson().toJson())
                .contains("\"tcp_info\":{\"source\":\"TCP_INFO of the sending socket\",\"retransmits_window\":"
                        + t.windowRetransmits() + ",\"tcpi_total_retrans\":" + t.totalRetransmits() + ",\"cwnd_bytes\":"
                        + t.cwndBytes() + ",\"tcpi_rtt\":" + t.rttMicros());
    }

    @Test
    void everyIntervalCarriesTheSendersTcpInfo() throws Exception {
        TransferResult r = run(TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4)
                .warmup(Duration.ofMillis(100)).duration(Duration.ofMillis(300)).interval(Duration.ofMillis(100)).build());
        TcpStats end = r.tcp().orElseThrow();
        List<IntervalSample> intervals = r.intervals();
        assertThat(intervals).hasSizeGreaterThanOrEqualTo(2);
        for (IntervalSample s : intervals) {
            TcpIntervalSample t = s.tcp().orElseThrow();
            assertThat(t.retransmits()).isNotNegative();
            // tcpi_snd_cwnd segments of tcpi_snd_mss bytes; the MSS of loopback does not change within a run
            assertThat(t.cwndBytes()).isPositive();
            assertThat(t.cwndBytes() % end.senderMss()).isZero();
            assertThat(t.rttMicros()).isPositive();
        }
        // the intervals add up to tcpi_total_retrans at the last tick minus at the start (0 on a fresh
        // connection): never more than the connection's total, read after the run
        long sum = intervals.stream().mapToLong(s -> s.tcp().orElseThrow().retransmits()).sum();
        assertThat(sum).isLessThanOrEqualTo(end.totalRetransmits());
        assertThat(TransferFormat.intervalLine(intervals.get(0), false)).contains("  Retr ").contains("  Cwnd ");
    }

    @Test
    void theRetransmitsMetricHasKpersReportOnlyPolicy() throws Exception {
        TransferResult r = run(TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV6)
                .warmup(Duration.ZERO).bound(Bound.bytes(5_000_000)).build());
        Metric m = r.metrics().stream().filter(x -> x.name().equals("tcp6_retransmits")).findFirst().orElseThrow();
        assertThat(m.unit()).isEqualTo("segments");
        assertThat(m.host()).isEqualTo("local");
        assertThat(m.value()).isEqualTo(r.tcp().orElseThrow().windowRetransmits());
        assertThat(MetricJson.defaultPolicy(m)).isEqualTo("{\"name\":\"tcp6_retransmits\",\"summarize\":\"max\"}");
    }
}
