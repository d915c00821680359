package io.linerate.nio;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Bound;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.spi.cost.CpuCounters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * Ten count-bound TCP transfers on loopback: how much throughput and service demand vary from run
 * to run, as coefficients of variation (standard deviation over mean). The figures are reported,
 * not asserted: how steady either is depends on the host's load, which a test cannot fix.
 */
class CostSteadinessTest {
    private static final int RUNS = 10;
    /** 64 MiB per transfer: long enough that thread start-up is a small part of the CPU time. */
    private static final long BYTES = 64L << 20;

    @Test
    void throughputAndServiceDemandOfRepeatedCountBoundTransfersHaveAFiniteSpread(TestReporter reporter) throws Exception {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).bound(Bound.bytes(BYTES))
                .warmup(Duration.ZERO).build();
        List<Double> mbps = new ArrayList<>();
        List<Double> demand = new ArrayList<>();
        for (int i = 0; i < RUNS; i++) {
            try (Transfer t = Transports.select(null, spec).open(spec, Clock.system())) {
                TransferResult r = t.run();
                // a count-bound TCP transfer delivers every byte it was asked to move
                assertThat(r.bytesReceived()).isEqualTo(BYTES);
                // this module's class path has no CPU counter provider: the result says so, never 0
                assertThat(r.instructions().unavailable()).contains(CpuCounters.NO_PROVIDER);
                assertThat(r.metrics()).noneMatch(m -> m.name().endsWith("_instructions_per_byte"));
                mbps.add(r.bitsPerSecond().orElseThrow() / 1e6);
                demand.add(r.serviceDemand().threadsUsPerKiB().orElseThrow());
            }
        }
        double cvSpeed = cv(mbps);
        double cvCost = cv(demand);
        reporter.publishEntry("cv_throughput", String.valueOf(cvSpeed));
        reporter.publishEntry("cv_service_demand", String.valueOf(cvCost));
        System.out.printf("count-bound tcp4, %d runs of %d B: CV of throughput %.4f, CV of service demand %.4f%n",
                RUNS, BYTES, cvSpeed, cvCost);
        assertThat(cvSpeed).isFinite().isPositive();
        assertThat(cvCost).isFinite().isPositive();
    }

    /** Sample standard deviation (n - 1) over the mean. */
    static double cv(List<Double> xs) {
        double mean = xs.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
        double ss = xs.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum();
        return Math.sqrt(ss / (xs.size() - 1)) / mean;
    }
}
