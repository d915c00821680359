package com.example.throughput;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.regression.LinerateBaseline;
import io.linerate.regression.MetricAssertions;
import io.linerate.regression.TestBaseline;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * TCP over loopback, checked two ways: against a fixed floor, and against a baseline this project
 * committed in src/test/resources/baselines. The baseline was made from a run of this test:
 * <pre>
 * mvn test -Dtest=LoopbackThroughputTest#pacedThroughputHeldItsBaseline -Dlinerate.baseline.save=src/test/resources
 * </pre>
 */
class LoopbackThroughputTest {

    private static TransferResult run(TransferSpec spec) throws Exception {
        try (Transfer transfer = Transports.forSpec(spec).open(spec, Clock.system())) {
            return transfer.run();
        }
    }

    @Test
    void loopbackCarriesAtLeastOneMegabitPerSecond() throws Exception {
        TransferResult result = run(TransferSpec.builder()
                .protocol(Protocol.TCP)
                .duration(Duration.ofMillis(500))
                .build());

        // a floor no loaded machine falls under: 1 Mbit/s, given in bits/s
        MetricAssertions.assertThat(result).throughputAtLeast(1_000_000);
    }

    @Test
    @LinerateBaseline("baselines/paced-tcp4.json")
    void pacedThroughputHeldItsBaseline(TestBaseline baseline) throws Exception {
        // paced at 50 Mbit/s in 16 KiB writes: a rate a busy machine still holds, so the baseline
        // holds on other machines too
        TransferResult result = run(TransferSpec.builder()
                .protocol(Protocol.TCP)
                .payloadBytes(16 * 1024)
                .rateBitsPerSecond(50_000_000L)
                .duration(Duration.ofSeconds(1))
                .build());

        // fails only below 10 % of the baseline's goodput
        baseline.gate(MetricAssertions.assertThat(result).withTolerancePercent(90));
    }
}
