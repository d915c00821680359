package io.linerate.core.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the loopback suite's ktap output says about each UDP metric's policy. */
class TransferMetricsPolicyTest {
    @Test
    void udpMetricsFollowTheDefaultDirectionJitterIsAdvisoryAndLossIsJudgedInPercentagePoints() {
        List<Metric> m = TransferFormat.metrics(OutputFormatsGoldenTest.udpResult(), "udp6", 2.5);
        assertThat(m).extracting(Metric::name).containsExactly("udp6_mbps", "udp6_jitter_ms", "udp6_lost_pct",
                "udp6_cpu_us_per_kb");
        assertThat(m).allSatisfy(x -> assertThat(MetricDefaults.direction(x.name(), x.unit())).as(x.name()).contains(x.better()));
        StringWriter w = new StringWriter();
        try (KtapSink sink = new KtapSink(new PrintWriter(w))) {
            m.forEach(sink::accept);
        }
        // 4,029,248 B in the 2 s window = 16.116992 Mbit/s; jitter 4000.5 ns = 0.0040005 ms; 698 of 5000 lost = 13.96 %;
        // service demand: (1.9 s + 1.7 s) of the two threads' CPU = 3,600,000 us over 5,249,248 B received
        // = 5126.21875 KiB: 702.2720206780095 us/KiB
        assertThat(w.toString().replace(System.lineSeparator(), "\n")).isEqualTo(String.join("\n",
                "# ktap-metric-policy-json: {\"name\":\"udp6_mbps\",\"regression\":{\"better\":\"higher\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\"}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp6_mbps\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"Mbit/s\",\"value\":16.116992}",
                "# ktap-metric-policy-json: {\"name\":\"udp6_jitter_ms\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"advisory\":true}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp6_jitter_ms\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"ms\",\"value\":0.0040005}",
                "# ktap-metric-policy-json: {\"name\":\"udp6_lost_pct\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.0},\"summarize\":\"distribution\",\"absolute_tolerance\":1.0}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp6_lost_pct\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"%\",\"value\":13.96}",
                "# ktap-metric-policy-json: {\"name\":\"udp6_cpu_us_per_kb\",\"regression\":{\"better\":\"lower\",\"compare\":\"p50\",\"relative_tolerance\":0.05},\"summarize\":\"distribution\",\"advisory\":true}",
                "# ktap-metric-json: {\"host\":\"local\",\"name\":\"udp6_cpu_us_per_kb\",\"shape\":\"scalar\",\"time\":2.5,\"unit\":\"us/KiB\",\"value\":702.2720206780095}",
                ""));
    }
}
