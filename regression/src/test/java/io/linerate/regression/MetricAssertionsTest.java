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
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestReporter;
import org.junit.jupiter.api.io.TempDir;

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
        return TransferResult.builder(spec).bytesSent(bytesInOneSecond).messagesSent(1000)
                .bytesReceived(bytesInOneSecond).window(0, 1_000_000_000L)
                .windowBytesSent(bytesInOneSecond).windowBytesReceived(bytesInOneSecond)
                .options(new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false)).senderCpuNanos(0)
                .receiverCpuNanos(0).senderAllocatedBytes(0).receiverAllocatedBytes(0).build();
    }

    @Test
    void gatesAnyResultByItsOwnMetricsAndRefusesAnInvalidOne() {
        // the same transfer through the result contract: 1,140,062,500 bytes in 1 s = 9120.5 Mbit/s,
        // the baseline's value, so the one verdict passes with no change
        GateReport ok = MetricAssertions.assertThat((io.linerate.core.MeasurementResult) tcp4(1_140_062_500L))
                .hasNoRegressionAgainst("baselines/tcp4.json");
        assertThat(ok.verdicts()).singleElement().satisfies(v -> {
            assertThat(v.kind()).isEqualTo(Verdict.Kind.PASS);
            assertThat(v.current()).isEqualTo(9120.5);
        });
        TransferResult t = tcp4(0);
        TransferResult invalid = TransferResult.builder(t.spec()).window(0, 1_000_000_000L).options(t.options())
                .invalidReasons(List.of("no payload byte arrived in the measured window")).build();
        assertThatThrownBy(() -> MetricAssertions.assertThat(invalid))
                .isInstanceOf(AssertionError.class)
                .hasMessage("the stream result is invalid, so its metrics are not gated: "
                        + "no payload byte arrived in the measured window");
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
                        + "  tcp4/tcp4_mbps@local: regression -12.3% (base 9120.5, cur 8000 Mbit/s, tol 5%)");
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L))
                .hasNoRegressionAgainst("baselines/none.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource baselines/none.json is not on the class path. Make it from a run:"
                        + " with the system property linerate.baseline.save=DIR set, the test writes its run as"
                        + " DIR/baselines/none.json instead of comparing, as in\n"
                        + "  mvn test -Dtest=MetricAssertionsTest -Dlinerate.baseline.save=src/test/resources\n"
                        + "then review the file and commit it.");
    }

    @Test
    void toleranceOverrideAndMissingMetric() {
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 8000, "Mbit/s", 2, Better.HIGHER)))
                .withTolerancePercent(15).hasNoRegressionAgainst("baselines/loopback.json"))
                .hasMessage("metrics regressed against the baseline:\n"
                        + "  udp4_jitter_ms@local: missing - in the baseline, absent now");
        assertThatThrownBy(() -> MetricAssertions.assertThatMetrics(List.of(
                        Metric.of("tcp4_mbps", 8000, "Mbit/s", 2, Better.HIGHER))).withTolerancePercent(-1))
                .hasMessage("tolerance -1.0% is not allowed; allowed: 0 to 100 percent");
    }

    static TransferResult tcp6(long bytesInOneSecond) {
        TransferSpec spec = TransferSpec.builder().protocol(Protocol.TCP).family(AddressFamily.IPV6).build();
        return TransferResult.builder(spec).bytesSent(bytesInOneSecond).messagesSent(1000)
                .bytesReceived(bytesInOneSecond).window(0, 1_000_000_000L)
                .windowBytesSent(bytesInOneSecond).windowBytesReceived(bytesInOneSecond)
                .options(new AppliedOptions(0x20, 0x20, 0, 0, 0, 0, false, false)).senderCpuNanos(0)
                .receiverCpuNanos(0).senderAllocatedBytes(0).receiverAllocatedBytes(0).build();
    }

    @Test
    void anIpv6RunAgainstAnIpv4BaselineNamesWhatItProduced() {
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp6(1_140_062_500L))
                .hasNoRegressionAgainst("baselines/tcp4.json"))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("metrics regressed against the baseline:\n"
                        + "  tcp4_mbps@local: missing - in the baseline, absent now;"
                        + " this run produced instead: tcp6/tcp6_mbps@local\n"
                        + "  baseline@gate: error - compared nothing against the baseline: no series is in both; 1 missing."
                        + " The baseline had 1 series (tcp4_mbps@local); this run produced 1 series (tcp6/tcp6_mbps@local)");
    }

    @Test
    void theSaveDirectoryIsMadeWhenANewProjectHasNone(@TempDir Path dir) throws IOException {
        String saved = System.getProperty(MetricAssertions.SAVE_PROPERTY);
        Path resources = dir.resolve("src/test/resources");
        System.setProperty(MetricAssertions.SAVE_PROPERTY, resources.toString());
        try {
            MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).hasNoRegressionAgainst("baselines/first.json");
        } finally {
            if (saved == null) {
                System.clearProperty(MetricAssertions.SAVE_PROPERTY);
            } else {
                System.setProperty(MetricAssertions.SAVE_PROPERTY, saved);
            }
        }
        assertThat(Baseline.parse("first.json", Files.readString(resources.resolve("baselines/first.json"))).series())
                .singleElement().satisfies(s -> assertThat(s.runs()).singleElement()
                        .satisfies(run -> assertThat(run.samples()).containsExactly(9120.5)));
    }

    @Test
    void theFirstBaselineIsSavedFromARunAndNeverReplacedWithoutOverwrite(@TempDir Path dir) throws IOException {
        String saved = System.getProperty(MetricAssertions.SAVE_PROPERTY);
        System.setProperty(MetricAssertions.SAVE_PROPERTY, dir.toString());
        try {
            // 1,140,062,500 bytes in 1 s = 9120.5 Mbit/s, saved under <dir>/baselines/first.json
            GateReport r = MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).publishingTo(reporter)
                    .hasNoRegressionAgainst("baselines/first.json");
            Path file = dir.resolve("baselines/first.json");
            assertThat(r.verdicts()).singleElement().satisfies(v -> assertThat(v.reason()).isEqualTo("no baseline"));
            assertThat(published).containsEntry("linerate.tcp4_mbps@local", "9120.5 Mbit/s")
                    .containsEntry("linerate.baseline.saved", file.toRealPath().toString());
            Baseline b = Baseline.parse("first.json", Files.readString(file));
            assertThat(b.series()).singleElement().satisfies(s -> {
                // keyed under the test its spec names, as the command line's --ktap and --json key it
                assertThat(s.key().display()).isEqualTo("tcp4/tcp4_mbps@local");
                assertThat(s.runs()).singleElement().satisfies(run -> assertThat(run.samples()).containsExactly(9120.5));
            });
            // a second run does not replace it: 1,000,000,000 bytes in 1 s = 8000 Mbit/s
            assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L))
                    .hasNoRegressionAgainst("baselines/first.json"))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("not saving baseline " + file.toRealPath() + ": it exists, and a baseline is only replaced"
                            + " on purpose; run with -Dlinerate.baseline.overwrite=true to replace it");
            assertThat(Files.readString(file)).contains("9120.5").doesNotContain("8000");
            // a resource name is confined to the directory
            assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L))
                    .hasNoRegressionAgainst("../escape.json"))
                    .hasMessageContaining("baseline resource ../escape.json has a '..' element");
            assertThat(dir.resolveSibling("escape.json")).doesNotExist();
        } finally {
            if (saved == null) {
                System.clearProperty(MetricAssertions.SAVE_PROPERTY);
            } else {
                System.setProperty(MetricAssertions.SAVE_PROPERTY, saved);
            }
        }
        // without the property the saved file is an ordinary baseline: 8000 against 9120.5 is -12.3 %
        Baseline b = Baseline.parse("first.json", Files.readString(dir.resolve("baselines/first.json")));
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L)).hasNoRegressionAgainst(b))
                .hasMessage("metrics regressed against the baseline:\n"
                        + "  tcp4/tcp4_mbps@local: regression -12.3% (base 9120.5, cur 8000 Mbit/s, tol 5%)");
    }

    @Test
    void saveBaselineReportsTheFileItWrote(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tcp4.json");
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).publishingTo(reporter).saveBaseline(file, false);
        } finally {
            System.setOut(stdout);
        }
        String real = file.toRealPath().toString();
        assertThat(published).containsEntry("linerate.baseline.saved", real);
        assertThat(printed.toString(StandardCharsets.UTF_8))
                .isEqualTo("linerate: saved baseline " + real + " (1 series)" + System.lineSeparator());
    }

    @Test
    void saveBaselineHasAnExplicitOverwriteFlag(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("tcp4.json");
        MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L)).saveBaseline(file, false);
        assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L)).saveBaseline(file, false))
                .isInstanceOf(FileAlreadyExistsException.class);
        assertThat(Files.readString(file)).contains("9120.5");
        Baseline replaced = MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L)).saveBaseline(file, true);
        assertThat(replaced.series().get(0).runs().get(0).samples()).containsExactly(8000.0);
        assertThat(Files.readString(file)).contains("8000").doesNotContain("9120.5");
        assertThat(replaced.environment().transport()).isEqualTo("unspecified");
        // only the baseline is left in the directory: the replacement went through a temporary file
        try (var files = Files.list(dir)) {
            assertThat(files).containsExactly(file);
        }
    }
    @Test
    void aBaselineNameThatIsEmptyAbsoluteOrClimbsIsRefusedInBothModes(@TempDir Path dir) {
        String allowed = "allowed: a file's name relative to the class path's root, without '..', such as "
                + "baselines/loopback.json";
        MetricAssertions a = MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L));
        // "" and "baselines" would read the class path's directory listing as JSON
        assertThatThrownBy(() -> a.hasNoRegressionAgainst("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource name '' is empty; " + allowed);
        assertThatThrownBy(() -> a.hasNoRegressionAgainst("baselines")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource baselines is a directory on the class path; " + allowed);
        // read through the class loader, this one found test-classes/baselines/tcp4.json from outside its root
        assertThatThrownBy(() -> a.hasNoRegressionAgainst("../test-classes/baselines/tcp4.json"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource ../test-classes/baselines/tcp4.json has a '..' element; " + allowed);
        assertThatThrownBy(() -> a.hasNoRegressionAgainst("/baselines/tcp4.json")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource /baselines/tcp4.json is absolute; " + allowed);
        String saved = System.getProperty(MetricAssertions.SAVE_PROPERTY);
        System.setProperty(MetricAssertions.SAVE_PROPERTY, dir.toString());
        try {
            assertThatThrownBy(() -> a.hasNoRegressionAgainst(" ")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("baseline resource name ' ' is empty; " + allowed);
        } finally {
            if (saved == null) {
                System.clearProperty(MetricAssertions.SAVE_PROPERTY);
            } else {
                System.setProperty(MetricAssertions.SAVE_PROPERTY, saved);
            }
        }
        assertThat(dir.toFile().list()).isEmpty();
    }
    @Test
    void aSaveDirectoryThatCannotHoldTheBaselineSaysWhy() throws IOException {
        // /proc/<pid> takes no new directories: mkdir fails with ENOENT, whose JDK message is the path alone
        Path proc = Path.of("/proc/self");
        Assumptions.assumeTrue(Files.isDirectory(proc), "skipped: needs Linux's /proc");
        Path real = proc.toRealPath();
        String saved = System.getProperty(MetricAssertions.SAVE_PROPERTY);
        System.setProperty(MetricAssertions.SAVE_PROPERTY, proc.toString());
        try {
            assertThatThrownBy(() -> MetricAssertions.assertThatTransfer(tcp4(1_140_062_500L))
                    .hasNoRegressionAgainst("baselines/first.json"))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasMessage("cannot save baseline baselines/first.json under /proc/self: " + real.resolve("baselines")
                            + ": no such file or directory");
        } finally {
            if (saved == null) {
                System.clearProperty(MetricAssertions.SAVE_PROPERTY);
            } else {
                System.setProperty(MetricAssertions.SAVE_PROPERTY, saved);
            }
        }
    }
}
