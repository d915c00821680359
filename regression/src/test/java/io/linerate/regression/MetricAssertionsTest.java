package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.Protocol;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

class MetricAssertionsTest {
    private final Map<String, String> published = new LinkedHashMap<>();
    private final TestReporter reporter = new TestReporter() {
        @Override
        public void publishEntry(Map<String, String> map) {
            published.putAll(map);
        }
    };

    @Test
    void passesWithinToleranceAndPublishesEveryMetric() {
        // baselines/loopback.json: tcp4_mbps 9120.5, udp4_jitter_ms 0.0123 (p50 of one sample each)
        GateReport r = MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 9000, "Mbit/s", 2, Better.HIGHER),
                        Metric.of("udp4_jitter_ms", 0.0125, "ms", 2, Better.LOWER)))
                .publishingTo(reporter).hasNoRegressionAgainst("baselines/loopback.json");
        assertThat(r.exitCode()).isZero();
        assertThat(published).containsExactly(Map.entry("linerate.tcp4_mbps@local", "9000 Mbit/s"),
                Map.entry("linerate.udp4_jitter_ms@local", "0.0125 ms"));
    }

    @Test
    void failsListingEachRegressedMetricWithBaseCurrentChangeAndTolerance() {
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 8000, "Mbit/s", 2, Better.HIGHER),
                        Metric.of("udp4_jitter_ms", 0.02, "ms", 2, Better.LOWER)))
                .publishingTo(reporter).hasNoRegressionAgainst("baselines/loopback.json"))
                .isInstanceOf(AssertionError.class)
                .hasMessage("metrics regressed against the baseline:\n"
                        + "  tcp4_mbps@local: regression -12.3% (base 9120.5, cur 8000 Mbit/s, tol 5%)");
        assertThat(published).containsKeys("linerate.tcp4_mbps@local", "linerate.udp4_jitter_ms@local");
        // jitter is advisory by default: (0.02 - 0.0123) / 0.0123 = +62.6 % is reported, never failing
        GateReport r = MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 9120.5, "Mbit/s", 2, Better.HIGHER),
                        Metric.of("udp4_jitter_ms", 0.02, "ms", 2, Better.LOWER)))
                .hasNoRegressionAgainst("baselines/loopback.json");
        assertThat(r.verdicts()).extracting(Verdict::kind).containsExactly(Verdict.Kind.PASS, Verdict.Kind.ADVISORY_REGRESSION);
        assertThat(Reports.change(r.verdicts().get(1))).isEqualTo("+62.6%");
    }

    static TransferResult tcp4(long bytesInOneSecond) {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV4).build();
        return new TransferResult(spec, bytesInOneSecond, 1000, bytesInOneSecond, 0, 1_000_000_000L, bytesInOneSecond,
                bytesInOneSecond, Optional.empty(), List.of(), new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false),
                0, 0, 0, 0, List.of());
    }

    @Test
    void gatesATransferResultByItsMarker() {
        // 1,140,062,500 bytes in 1 s = 9120.5 Mbit/s, the baseline's value
        GateReport ok = MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).publishingTo(reporter)
                .hasNoRegressionAgainst("baselines/tcp4.json");
        assertThat(ok.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.current()).isEqualTo(9120.5);
        });
        assertThat(published).containsEntry("linerate.tcp4_mbps@local", "9120.5 Mbit/s");
        // 1,000,000,000 bytes in 1 s = 8000 Mbit/s: (8000 - 9120.5) / 9120.5 = -12.3 %
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L))
                .hasNoRegressionAgainst("baselines/tcp4.json"))
                .hasMessage("metrics regressed against the baseline:\n"
                        + "  tcp4_mbps@local: regression -12.3% (base 9120.5, cur 8000 Mbit/s, tol 5%)");
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L))
                .hasNoRegressionAgainst("baselines/none.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource baselines/none.json is not on the class path");
    }

    @Test
    void toleranceOverrideAndMissingMetric() {
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 8000, "Mbit/s", 2, Better.HIGHER)))
                .withTolerancePercent(15).hasNoRegressionAgainst("baselines/loopback.json"))
                .hasMessage("metrics regressed against the baseline:\n"
                        + "  udp4_jitter_ms@local: missing n/a (base n/a, cur n/a ms, tol 15%) - in the baseline, absent now");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 8000, "Mbit/s", 2, Better.HIGHER))).withTolerancePercent(-1))
                .hasMessage("tolerance -1.0% is not allowed; allowed: 0 to 100 percent");
    }
}
