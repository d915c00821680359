package io.linerate.core.latency;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Metric;
import io.linerate.core.MetricDefaults;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The latency and request/response metrics state the direction the default rule gives their name and unit. */
class MetricDirectionsTest {
    @Test
    void latencyAndTransactionMetricsFollowTheDefaultDirection() {
        List<Metric> all = new ArrayList<>(RrReportTest.report().metrics(1));
        all.addAll(LatencyReportTest.report(LatencyMode.HALF_RTT, 99).metrics(Map.of()));
        // transactions_per_second in transactions/s: higher; latency_* in ns: the word latency makes them lower
        assertThat(all).extracting(Metric::name).contains("transactions_per_second", "latency_p50", "latency_p99");
        assertThat(all).allSatisfy(m ->
                assertThat(MetricDefaults.direction(m.name(), m.unit())).as(m.name()).contains(m.better()));
    }
}
