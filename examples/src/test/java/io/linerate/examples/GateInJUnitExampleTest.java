package io.linerate.examples;

import static io.linerate.regression.MetricAssertions.assertThatTransfer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.within;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.regression.Baseline;
import io.linerate.regression.GateReport;
import io.linerate.regression.Verdict;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a test suite gates its own throughput against a stored baseline: the README shows this code.
 * The transfer is paced at 50 Mbit/s in 16 KiB writes, a rate even a busy host holds, so that the baseline in
 * {@code src/test/resources/baselines} can be shared across machines; a paced sender that loses
 * CPU falls short of its target and never bursts above it, so the tolerance covers a loaded host.
 * A suite makes its first baseline from a run: with {@code -Dlinerate.baseline.save=src/test/resources}
 * on the Maven command line, {@code hasNoRegressionAgainst} writes the run as that baseline
 * instead of comparing (see the README); {@link #theFirstBaselineComesFromARun} does the same from code.
 */
class GateInJUnitExampleTest {

    private static TransferResult pacedTcp(long bitsPerSecond) throws Exception {
        // 16 KiB writes: 381 a second at 50 Mbit/s, so a sender descheduled now and then on a busy
        // host still keeps its schedule, which forgives debt beyond 20 ms of catch-up
        TransferSpec spec = TransferSpec.builder()
                .protocol(Protocol.TCP)
                .payloadBytes(16 * 1024)
                .rateBitsPerSecond(bitsPerSecond)
                .duration(Duration.ofSeconds(1))
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

        Throwable failure = catchThrowable(() -> assertThatTransfer(slower).withTolerancePercent(20)
                .hasNoRegressionAgainst("baselines/paced-tcp4.json"));

        assertThat(failure).isInstanceOf(AssertionError.class);
        Matcher m = Pattern.compile("tcp4_mbps@local: regression (-\\d+\\.\\d)% \\(base 50, cur (\\d+(?:\\.\\d+)?) Mbit/s, tol 20%\\)")
                .matcher(failure.getMessage());
        assertThat(m.find()).as(failure.getMessage()).isTrue();
        double change = Double.parseDouble(m.group(1));
        double current = Double.parseDouble(m.group(2));
        // A sender paced at 10 Mbit/s delivers at most about 10 (less on a busy host), so against the
        // 50 Mbit/s baseline the change is at most about -80% and always beyond the 20% tolerance;
        // the printed change is (cur - base) / base, to the one decimal the message shows.
        assertThat(current).isLessThan(50 * 0.8);
        assertThat(change).isCloseTo((current - 50) / 50 * 100, within(0.06));
        assertThat(slower.valid()).isTrue();
    }

    @Test
    void theFirstBaselineComesFromARun(@TempDir Path dir) throws Exception {
        TransferResult first = pacedTcp(50_000_000L);
        Path file = dir.resolve("paced-tcp4.json");

        assertThatTransfer(first).saveBaseline(file, false);

        // the run against the baseline it made: the same single sample on both sides, so the
        // change is exactly 0 whatever rate this host reached
        GateReport report = assertThatTransfer(first)
                .hasNoRegressionAgainst(Baseline.parse(file.toString(), Files.readString(file)));
        // goodput, the sender's retransmits (read through sock_diag: linerate-native is on the class
        // path) and service demand, each the same single sample on both sides
        assertThat(report.verdicts()).extracting(v -> v.key().name())
                .containsExactly("tcp4_mbps", "tcp4_retransmits", "tcp4_cpu_us_per_kb");
        assertThat(report.verdicts()).allSatisfy(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.current()).isEqualTo(v.baseline());
        });
        // the retransmits are reported only (advisory): no change is computed for them
        assertThat(report.verdicts()).filteredOn(v -> !v.key().name().endsWith("_retransmits"))
                .allSatisfy(v -> assertThat(v.change()).isEqualTo(0.0));
        // a baseline is never replaced by accident
        assertThat(catchThrowable(() -> assertThatTransfer(first).saveBaseline(file, false)))
                .isInstanceOf(FileAlreadyExistsException.class);
    }
}
