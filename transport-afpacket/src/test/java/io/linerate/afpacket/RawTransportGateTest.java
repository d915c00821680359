package io.linerate.afpacket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Transport;
import io.linerate.regression.Baseline;
import io.linerate.regression.GateReport;
import io.linerate.regression.MetricAssertions;
import io.linerate.regression.Verdict;
import io.linerate.testsupport.VethPair;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A raw run picked and opened through the transport SPI, across a veth pair this test creates
 * (needs root and Linux), gated like any other result: MetricAssertions and the gate, against a
 * baseline saved from the same run.
 */
class RawTransportGateTest {
    private static final int FRAME = 256;

    @BeforeAll
    static void needsRawSockets() {
        assumeTrue(System.getProperty("os.name", "").startsWith("Linux"), "raw transfers need Linux");
        assumeTrue(AfPacket.isAvailable(), () -> "AF_PACKET unavailable: " + AfPacket.unavailabilityCause().orElse(""));
    }

    @Test
    void aRawRunThroughTheSpiPassesMetricAssertionsAndTheGate(@TempDir Path dir) throws Exception {
        try (VethPair v = VethPair.create()) {
            // 20 000 frames/s in all, far below what two shared cores move: a clean path loses nothing
            RawTransferSpec spec = RawTransferSpec.builder(v.a, v.b)
                    .etherTypes(List.of(0x88b5, 0x88b6))
                    .frameSize(FRAME)
                    .rateBitsPerSecond(20_000L * FRAME * 8)
                    .batch(16)
                    .duration(Duration.ofMillis(400))
                    .warmup(Duration.ofMillis(100))
                    .hardwareTimestamps(false)
                    .build();
            Transport t = Transports.select(null, spec);
            assertThat(t.name()).isEqualTo("afpacket");
            MeasurementResult r;
            try (Measurement m = t.open(spec, Clock.system())) {
                r = m.run();
            }
            assertThat(r).isInstanceOf(RawResult.class);
            assertThat(r.invalidReasons()).isEmpty();
            assertThat(r.valid()).isTrue();
            assertThat(r.spec()).isSameAs(spec);

            List<Metric> metrics = r.metrics();
            // per stream rx frames/s, rx bit/s, tx frames/s and lost frames (both ends ran), 2 streams,
            // then the sender's and the receiver's CPU time: 4 × 2 + 2 = 10
            assertThat(metrics).hasSize(10);
            assertThat(metrics).extracting(Metric::name).containsExactly(
                    "raw_rx_frames_per_s", "raw_rx_bits_per_s", "raw_tx_frames_per_s", "raw_lost_frames",
                    "raw_rx_frames_per_s", "raw_rx_bits_per_s", "raw_tx_frames_per_s", "raw_lost_frames",
                    "raw_sender_cpu", "raw_receiver_cpu");
            for (String etherType : List.of("0x88b5", "0x88b6")) {
                Map<String, Double> byName = new java.util.HashMap<>();
                metrics.stream().filter(m -> etherType.equals(m.labels().get("ethertype")))
                        .forEach(m -> byName.put(m.name(), m.value()));
                // L2 bit/s = frames/s × 256 bytes × 8 = frames/s × 2048
                assertThat(byName.get("raw_rx_bits_per_s")).isCloseTo(byName.get("raw_rx_frames_per_s") * 2048,
                        within(byName.get("raw_rx_bits_per_s") * 1e-9));
                // a valid run with both ends lost nothing in the window (DESIGN rule 4)
                assertThat(byName.get("raw_lost_frames")).isZero();
            }

            Path file = dir.resolve("raw-baseline.json");
            Baseline saved = MetricAssertions.assertThat(r).saveBaseline(file, false);
            Baseline baseline = Baseline.parse(file.toString(), java.nio.file.Files.readString(file));
            assertThat(baseline.series()).hasSize(saved.series().size());
            GateReport report = MetricAssertions.assertThat(r).hasNoRegressionAgainst(baseline);
            assertThat(report.failures()).isEmpty();
            // every series is judged against itself: 10 metrics, 10 series (each stream's own labels), each unchanged
            assertThat(report.verdicts()).hasSize(10).extracting(Verdict::kind).containsOnly(Verdict.Kind.PASS);

            // the same gate fails a run whose receive rates are half the baseline's
            List<Metric> halved = metrics.stream().map(m -> m.name().startsWith("raw_rx_")
                    ? new Metric(m.name(), m.value() / 2, m.unit(), m.host(), m.timeSeconds(), m.labels(), m.better()) : m).toList();
            assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(halved).hasNoRegressionAgainst(baseline))
                    .isInstanceOf(AssertionError.class).hasMessageContaining("raw_rx_frames_per_s")
                    .hasMessageContaining("raw_rx_bits_per_s");

            JsonNode json = new ObjectMapper().readTree(ResultJson.of(r).toJson());
            assertThat(json.get("pattern").asText()).isEqualTo("raw-frames");
            assertThat(json.get("valid").asBoolean()).isTrue();
            assertThat(json.get("metrics")).hasSize(10);
            assertThat(json.get("detail").get("streams")).hasSize(2);
            assertThat(json.get("detail").get("tx").asText()).isEqualTo(v.a);
        }
    }
}
