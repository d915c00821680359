package io.linerate.regression;

import static io.linerate.regression.MetricAssertionsTest.tcp4;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Better;
import io.linerate.core.BidirectionalResult;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/** The absolute assertions: a figure of a result against a fixed bound, without a baseline. */
class MetricAssertionsAbsoluteTest {
    private final Map<String, String> published = new LinkedHashMap<>();
    private final TestReporter reporter = published::putAll;

    /** A bidirectional run of two transfers, each moving its bytes in the 1 s window. */
    private static BidirectionalResult bidirectional(long forwardBytes, long reverseBytes) {
        return new BidirectionalResult() {
            @Override
            public MeasurementResult forward() {
                return tcp4(forwardBytes);
            }

            @Override
            public MeasurementResult reverse() {
                return tcp4(reverseBytes);
            }
        };
    }

    private static Metric metric(String name, double value, String unit, Map<String, String> labels) {
        return new Metric(name, value, unit, Metric.LOCAL, 1, labels, Better.LOWER);
    }

    @Test
    void throughputIsEachDirectionsGoodputInMbitPerSecondAgainstABoundInBitsPerSecond() {
        // 101,550,000 B in 1 s = 812.4 Mbit/s forward; 118,750,000 B in 1 s = 950 Mbit/s reverse
        BidirectionalResult run = bidirectional(101_550_000L, 118_750_000L);
        MetricAssertions a = MetricAssertions.assertThat(run).publishingTo(reporter);
        assertThat(a.throughputAtLeast(800_000_000)).isSameAs(a);
        assertThat(published).containsEntry("linerate.tcp4_mbps@local", "950 Mbit/s");

        assertThatThrownBy(() -> MetricAssertions.assertThat(run).throughputAtLeast(900_000_000))
                .isInstanceOf(AssertionError.class)
                .hasMessage("tcp4/tcp4_mbps{direction=forward}@local = 812.4 Mbit/s, expected at least 900 Mbit/s");
        assertThatThrownBy(() -> MetricAssertions.assertThat(run).throughputAtLeast(1_000_000_000))
                .hasMessage("tcp4/tcp4_mbps{direction=forward}@local = 812.4 Mbit/s, expected at least 1000 Mbit/s\n"
                        + "tcp4/tcp4_mbps{direction=reverse}@local = 950 Mbit/s, expected at least 1000 Mbit/s");
    }

    @Test
    void throughputOfParallelStreamsIsTheirSumAndNeverASendersRate() {
        List<Metric> streams = List.of(
                metric("tcp4_mbps", 300, "Mbit/s", Map.of("stream", "0", "streams", "2")),
                metric("tcp4_mbps", 300, "Mbit/s", Map.of("stream", "1", "streams", "2")),
                metric("tcp4_mbps", 600, "Mbit/s", Map.of("stream", "sum", "streams", "2")),
                metric("tcp4_sent_mbps", 2000, "Mbit/s", Map.of()));
        // 500 Mbit/s: each stream's 300 is below it, their sum of 600 is not
        MetricAssertions.assertThatMetrics(streams).throughputAtLeast(500e6);
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(streams).throughputAtLeast(700e6))
                .hasMessage("tcp4_mbps{stream=sum,streams=2}@local = 600 Mbit/s, expected at least 700 Mbit/s");
        // the sender's rate alone is no goodput
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(streams.get(3))).throughputAtLeast(1e6))
                .hasMessage("no goodput <marker>_mbps in Mbit/s to check, expected at least 1 Mbit/s;"
                        + " the result has 1 series: tcp4_sent_mbps@local");
    }

    @Test
    void aValueThatWouldPrintAsTheBoundIsPrintedInFull() {
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(metric("tcp4_mbps", 899.99, "Mbit/s", Map.of())))
                .throughputAtLeast(900e6))
                .hasMessage("tcp4_mbps@local = 899.99 Mbit/s, expected at least 900 Mbit/s");
    }

    @Test
    void aResultWithoutTheFigureFailsNamingWhatItHas() {
        // 1,140,062,500 B in 1 s = 9120.5 Mbit/s; TCP has no loss figure
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).lossAtMost(1))
                .isInstanceOf(AssertionError.class)
                .hasMessage("no loss tcp4/tcp4_lost_pct in % to check, expected at most 1 %;"
                        + " the result has 1 series: tcp4/tcp4_mbps@local");
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).jitterAtMost(Duration.ofMillis(1)))
                .hasMessage("no jitter tcp4/tcp4_jitter_ms in ms to check, expected at most 1 ms;"
                        + " the result has 1 series: tcp4/tcp4_mbps@local");
    }

    @Test
    void lossIsThePercentLostOfEverySeries() {
        List<Metric> udp = List.of(metric("udp4_mbps", 48, "Mbit/s", Map.of()),
                metric("udp4_lost_pct", 2.5, "%", Map.of()));
        MetricAssertions.assertThatMetrics(udp).lossAtMost(2.5).lossAtMost(5);
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(udp).lossAtMost(1))
                .isInstanceOf(AssertionError.class)
                .hasMessage("udp4_lost_pct@local = 2.5 %, expected at most 1 %");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(udp).lossAtMost(101))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("loss bound 101.0% is not allowed; allowed: 0 to 100 percent");
    }

    @Test
    void jitterIsInMillisecondsAgainstADuration() {
        List<Metric> udp = List.of(metric("udp4_jitter_ms", 0.25, "ms", Map.of()));
        MetricAssertions.assertThatMetrics(udp).jitterAtMost(Duration.ofNanos(250_000));
        // 100,000 ns = 0.1 ms
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(udp).jitterAtMost(Duration.ofNanos(100_000)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("udp4_jitter_ms@local = 0.25 ms, expected at most 0.1 ms");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(udp).jitterAtMost(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("jitter bound PT-0.001S is not allowed; allowed: a duration of at least 0");
    }

    @Test
    void aLatencyPercentileIsCheckedForEverySizeInNanoseconds() {
        List<Metric> pingPong = List.of(
                metric("latency_p50", 40_000, "ns", Map.of("latency", "rtt", "size", "64")),
                metric("latency_p99", 52_000, "ns", Map.of("latency", "rtt", "size", "64")),
                metric("latency_p99", 81_000, "ns", Map.of("latency", "rtt", "size", "1024")));
        MetricAssertions.assertThatMetrics(pingPong).latencyPercentileAtMost(99, Duration.ofNanos(81_000))
                .latencyPercentileAtMost(50, Duration.ofNanos(40_000));
        // 60 µs = 60,000 ns: only the 1024-byte p99 is above it
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(pingPong)
                .latencyPercentileAtMost(99, Duration.ofNanos(60_000)))
                .isInstanceOf(AssertionError.class)
                .hasMessage("latency_p99{latency=rtt,size=1024}@local = 81000 ns, expected at most 60000 ns");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(pingPong)
                .latencyPercentileAtMost(99.9, Duration.ofMillis(1)))
                .hasMessage("no latency percentile latency_p99.9 in ns to check, expected at most 1000000 ns;"
                        + " the result has 3 series: latency_p50{latency=rtt,size=64}@local,"
                        + " latency_p99{latency=rtt,size=64}@local, latency_p99{latency=rtt,size=1024}@local");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(pingPong)
                .latencyPercentileAtMost(0, Duration.ofMillis(1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("percentile 0.0 is not allowed; allowed: greater than 0 and at most 100");
    }

    @Test
    void aThroughputBoundMustBeAFiniteRate() {
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000L)).throughputAtLeast(-1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("throughput bound -1.0 bit/s is not allowed; allowed: a finite number of bits/s, at least 0");
    }
}
