package io.linerate.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.Transports;
import io.linerate.core.latency.IterationPolicy;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.regression.Baseline;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricAssertions;
import io.linerate.regression.Verdict;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ping-pong and a request/response run are gated in a JUnit test the way a stream is: run through
 * the one path ({@code Transports.select(null, spec).open(spec, clock).run()}), then
 * {@link MetricAssertions#assertThat(MeasurementResult)}. Each run is gated against the baseline it
 * made itself, so every series has the same single sample on both sides and passes with a change
 * of exactly 0 whatever this host's latency is.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LatencyGateInJUnitExampleTest {

    private static MeasurementResult run(MeasurementSpec spec) throws Exception {
        try (Measurement m = Transports.select(null, spec).open(spec, Clock.system())) {
            return m.run();
        }
    }

    private static GateReport gateAgainstItself(MeasurementResult result, Path file) throws Exception {
        MetricAssertions.assertThat(result).saveBaseline(file, false);
        return MetricAssertions.assertThat(result).hasNoRegressionAgainst(Baseline.parse(file.toString(),
                Files.readString(file)));
    }

    @Test
    void aPingPongResultPassesTheGate(@TempDir Path dir) throws Exception {
        // two sizes, exactly 100 measured round trips each (floor = cap), after 20 of warm-up
        PingPongSpec spec = PingPongSpec.builder().protocol(PingPongProtocol.UDP).sizes(List.of(1, 64))
                .policy(new IterationPolicy(Duration.ZERO, Duration.ofSeconds(30), 100, 100, Duration.ZERO, 20))
                .timeout(Duration.ofSeconds(5)).build();
        PingPongResult r = (PingPongResult) run(spec);

        GateReport report = gateAgainstItself(r, dir.resolve("pingpong.json"));

        // per size latency mean, min, p50, p99, max and stddev: 2 x 6 series, each a pass of change 0
        assertThat(report.verdicts()).hasSize(12).allSatisfy(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.change()).isEqualTo(0.0);
        });
    }

    @Test
    void aRequestResponseResultPassesTheGate(@TempDir Path dir) throws Exception {
        RrSpec spec = RrSpec.builder().flows(2).requestBytes(32).responseBytes(100)
                .duration(Duration.ofMillis(300)).warmup(Duration.ofMillis(100)).timeout(Duration.ofSeconds(5)).build();
        RrResult r = (RrResult) run(spec);

        GateReport report = gateAgainstItself(r, dir.resolve("rr.json"));

        // transactions/s of all flows and of flows 0 and 1, then latency p50, p99 and mean: 6 series
        assertThat(report.verdicts()).hasSize(6).allSatisfy(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.change()).isEqualTo(0.0);
        });
    }
}
