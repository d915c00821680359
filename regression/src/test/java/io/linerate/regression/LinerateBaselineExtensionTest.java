package io.linerate.regression;

import static io.linerate.regression.MetricAssertionsTest.tcp4;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.reporting.ReportEntry;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Runs small test classes that use {@link LinerateBaseline} through the JUnit Platform and checks
 * how each ends. The classes below are not named {@code *Test}, so the build does not run them alone.
 */
class LinerateBaselineExtensionTest {

    /** How the tests of one class ended: each test's outcome, and what they published. */
    record Run(List<TestExecutionResult> results, Map<String, String> entries, String stdout) {
        Throwable onlyFailure() {
            assertThat(results).singleElement().satisfies(r -> assertThat(r.getStatus()).isEqualTo(TestExecutionResult.Status.FAILED));
            return results.get(0).getThrowable().orElseThrow();
        }
    }

    private static Run run(Class<?> testClass) {
        List<TestExecutionResult> results = new ArrayList<>();
        Map<String, String> entries = new LinkedHashMap<>();
        TestExecutionListener listener = new TestExecutionListener() {
            @Override
            public void executionFinished(TestIdentifier id, TestExecutionResult result) {
                if (id.isTest()) {
                    results.add(result);
                }
            }

            @Override
            public void reportingEntryPublished(TestIdentifier id, ReportEntry entry) {
                entries.putAll(entry.getKeyValuePairs());
            }
        };
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request().selectors(selectClass(testClass)).build();
        PrintStream stdout = System.out;
        ByteArrayOutputStream printed = new ByteArrayOutputStream();
        System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
        try {
            LauncherFactory.create().execute(request, listener);
        } finally {
            System.setOut(stdout);
        }
        return new Run(results, entries, printed.toString(StandardCharsets.UTF_8));
    }

    @LinerateBaseline("baselines/tcp4.json")
    static class GatedByItsClass {
        @Test
        void sameRate(TestBaseline baseline) {
            // 1,140,062,500 B in 1 s = 9120.5 Mbit/s, the baseline's own value
            baseline.gate(tcp4(1_140_062_500L));
        }

        @Test
        void slower(TestBaseline baseline) {
            // 1,000,000,000 B in 1 s = 8000 Mbit/s: (8000 - 9120.5) / 9120.5 = -12.3 %
            baseline.gate(MetricAssertions.assertThatTransfer(tcp4(1_000_000_000L)).withTolerancePercent(10));
        }
    }

    @Test
    void gatesAgainstTheBaselineItsClassNamesAndPublishesTheMetrics() {
        Run r = run(GatedByItsClass.class);
        assertThat(r.results()).extracting(TestExecutionResult::getStatus)
                .containsExactlyInAnyOrder(TestExecutionResult.Status.SUCCESSFUL, TestExecutionResult.Status.FAILED);
        assertThat(r.results()).filteredOn(x -> x.getStatus() == TestExecutionResult.Status.FAILED).singleElement()
                .satisfies(x -> assertThat(x.getThrowable().orElseThrow()).isInstanceOf(AssertionError.class)
                        .hasMessage("metrics regressed against the baseline:\n"
                                + "  tcp4/tcp4_mbps@local: regression -12.3% (base 9120.5, cur 8000 Mbit/s, tol 10%)"));
        assertThat(r.entries()).containsKey("linerate.tcp4_mbps@local");
    }

    @LinerateBaseline("baselines/absent.json")
    static class MethodBeatsClass {
        @Test
        @LinerateBaseline("baselines/tcp4.json")
        void sameRate(TestBaseline baseline) {
            assertThat(baseline.resource()).isEqualTo("baselines/tcp4.json");
            baseline.gate(tcp4(1_140_062_500L));
        }
    }

    @Test
    void aMethodsBaselineBeatsItsClasss() {
        assertThat(run(MethodBeatsClass.class).results()).singleElement()
                .satisfies(x -> assertThat(x.getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
    }

    static class Missing {
        @Test
        @LinerateBaseline("baselines/first-run.json")
        void firstRun(TestBaseline baseline) {
            baseline.gate(tcp4(1_140_062_500L));
        }
    }

    @Test
    void aMissingBaselineFailsWithTheCommandThatMakesIt() {
        assertThat(run(Missing.class).onlyFailure()).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline resource baselines/first-run.json is not on the class path. Make it from a run:"
                        + " with the system property linerate.baseline.save=DIR set, the test writes its run as"
                        + " DIR/baselines/first-run.json instead of comparing, as in\n"
                        + "  mvn test -Dtest=LinerateBaselineExtensionTest -Dlinerate.baseline.save=src/test/resources\n"
                        + "then review the file and commit it.");
    }

    @Test
    void withTheSavePropertyItWritesTheBaselineAndPrintsTheFile(@TempDir Path dir) throws IOException {
        String saved = System.getProperty(MetricAssertions.SAVE_PROPERTY);
        System.setProperty(MetricAssertions.SAVE_PROPERTY, dir.toString());
        Run r;
        try {
            r = run(Missing.class);
        } finally {
            if (saved == null) {
                System.clearProperty(MetricAssertions.SAVE_PROPERTY);
            } else {
                System.setProperty(MetricAssertions.SAVE_PROPERTY, saved);
            }
        }
        Path file = dir.resolve("baselines/first-run.json").toRealPath();
        assertThat(r.results()).singleElement()
                .satisfies(x -> assertThat(x.getStatus()).isEqualTo(TestExecutionResult.Status.SUCCESSFUL));
        assertThat(r.entries()).containsEntry("linerate.baseline.saved", file.toString());
        assertThat(r.stdout()).contains("linerate: saved baseline " + file + " (1 series)");
        assertThat(Baseline.parse(file.toString(), Files.readString(file)).series()).singleElement()
                .satisfies(s -> assertThat(s.runs().get(0).samples()).containsExactly(9120.5));
    }

    @ExtendWith(LinerateBaselineExtension.class)
    static class Unnamed {
        @Test
        void noBaseline(TestBaseline baseline) {
            baseline.gate(tcp4(1_140_062_500L));
        }
    }

    @Test
    void aTestBaselineWithoutABaselineNamedIsRefused() {
        assertThat(run(Unnamed.class).onlyFailure())
                .hasMessageContaining("test Unnamed#noBaseline takes a TestBaseline but names no baseline;"
                        + " annotate the method or its class with @LinerateBaseline(\"baselines/<name>.json\")");
    }
}
