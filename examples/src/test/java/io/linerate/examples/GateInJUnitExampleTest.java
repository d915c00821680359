package io.linerate.examples;

import static io.linerate.regression.MetricAssertions.assertThatTransfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;

/**
 * How a test suite gates its own throughput against a stored baseline: the README shows this code.
 * The transfer is paced at 50 Mbit/s, a rate even a busy host holds, so that the baseline in
 * {@code src/test/resources/baselines} can be shared across machines; a paced sender that loses
 * CPU falls short of its target and never bursts above it, so the tolerance covers a loaded host.
 */
class GateInJUnitExampleTest {

    private static TransferResult pacedTcp(long bitsPerSecond) throws Exception {
        TransferSpec spec = TransferSpec.builder()
                .protocol(Protocol.TCP)
                .rateBitsPerSecond(bitsPerSecond)
                .duration(Duration.ofMillis(500))
                .build();
        try (Transfer transfer = Transports.forSpec(spec).open(spec, Clock.system())) {
            return transfer.run();
        }
    }

    @Test
    void throughputDidNotDropMoreThanTwentyPercent(TestReporter reporter) throws Exception {
        TransferResult result = pacedTcp(50_000_000L);

        assertThatTransfer(result).publishingTo(reporter).withTolerancePercent(20)
                .hasNoRegressionAgainst("baselines/paced-tcp4.json");
    }

    @Test
    void aDropBeyondTheToleranceFailsNamingTheMetric() throws Exception {
        TransferResult slower = pacedTcp(10_000_000L);

        assertThatThrownBy(() -> assertThatTransfer(slower).withTolerancePercent(20)
                .hasNoRegressionAgainst("baselines/paced-tcp4.json"))
                .isInstanceOf(AssertionError.class)
                .hasMessageMatching("(?s).*tcp4_mbps@local: regression -[89]\\d\\.\\d% \\(base 50, cur \\d+(\\.\\d+)? Mbit/s, tol 20%\\).*");
        assertThat(slower.valid()).isTrue();
    }
}
