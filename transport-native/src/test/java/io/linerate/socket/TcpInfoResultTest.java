package io.linerate.socket;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TcpStats;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.MetricJson;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The sender's TCP_INFO in a native stream's result: its detail JSON and its retransmits metric. */
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
