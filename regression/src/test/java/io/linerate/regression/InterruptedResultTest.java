package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linerate.core.AppliedOptions;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run stopped by SIGINT measured less than it asked for: the gate takes it neither as a run nor as a baseline. */
class InterruptedResultTest {
    private static final String METRIC = "{\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":1.5,"
            + "\"unit\":\"Mbit/s\",\"value\":900.0}";

    private static String result(String interrupted) {
        return "{\"format\":\"linerate-result\",\"version\":1,\"pattern\":\"stream\",\"test\":\"tcp4\",\"valid\":true,"
                + "\"invalid_reasons\":[]" + interrupted + ",\"metrics\":[" + METRIC + "],\"detail\":{}}\n";
    }

    private static String ktap(String directive) {
        return "KTAP version 1\n1..1\n# ktap-metric-json: " + METRIC + "\n" + directive + "\n"
                + "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0\n";
    }

    private static List<String> errors(String content) {
        return MetricReaders.read("run.log", content).errors().stream().map(Problem::message).toList();
    }

    @Test
    void aJsonResultMarkedInterruptedIsAnErrorAndNoRun() {
        MetricSet read = MetricReaders.read("run.json", result(",\"interrupted\":true"));
        assertThat(read.observations()).isEmpty();
        assertThat(read.errors()).singleElement().satisfies(p -> assertThat(p.message())
                .isEqualTo("stream result tcp4 was interrupted (stopped by SIGINT before its bound): it measured less "
                        + "than it asked for, so it is gated neither as a run nor as a baseline; run it again to its end"));
        // the same result run to its end is read as a run
        MetricSet whole = MetricReaders.read("run.json", result(""));
        assertThat(whole.errors()).isEmpty();
        assertThat(whole.observations()).singleElement().satisfies(o -> assertThat(o.value()).isEqualTo(900.0));
    }

    @Test
    void jsonLinesOfRepeatedRunsRefuseTheInterruptedOne() {
        String lines = result("").replace("}}\n", "},\"run\":1}\n") + result(",\"interrupted\":true").replace("}}\n", "},\"run\":2}\n");
        MetricSet read = MetricReaders.read("runs.log", lines);
        assertThat(read.observations()).hasSize(1);
        assertThat(read.errors()).singleElement().satisfies(p -> assertThat(p.message()).contains("was interrupted"));
    }

    @Test
    void aKtapTestNotOkInterruptedIsAnError() {
        assertThat(errors(ktap("not ok 1 tcp4 # interrupted"))).singleElement()
                .satisfies(m -> assertThat(m).startsWith("KTAP test tcp4 was interrupted (stopped by SIGINT"));
        assertThat(errors(ktap("not ok 1 tcp4 # invalid: no payload byte arrived"))).isEmpty();
    }

    @Test
    void aStreamResultLineMarkedInterruptedIsAnError() {
        String line = "{\"version\":1,\"marker\":\"udp4\",\"bits_per_second\":1.0E8,\"valid\":true,\"reasons\":[],"
                + "\"interrupted\":true}\n";
        assertThat(errors(line)).singleElement().satisfies(m -> assertThat(m).startsWith("result line udp4 was interrupted"));
    }

    @Test
    void theGateFailsOnAnInterruptedRunAndReportsItsInputError() {
        GateReport report = Gate.create().run(MetricReaders.read("run.log", ktap("not ok 1 tcp4 # interrupted")));
        assertThat(report.exitCode()).isEqualTo(1);
        assertThat(report.inputErrors()).isEqualTo(1);
        assertThat(Reports.ktap(report)).contains("was interrupted");
    }

    @Test
    void metricAssertionsRefuseAnInterruptedResultForGatingAndForSaving(@TempDir Path dir) {
        TransferSpec spec = TransferSpec.builder().build();
        TransferResult r = TransferResult.builder(spec).options(new AppliedOptions(0x20, 0x20, 0, 1000, 0, 1000, false, false))
                .bytesSent(1000).bytesReceived(1000).window(0, 1_000_000_000L).windowBytesReceived(1000)
                .windowBytesSent(1000).interrupted(true).build();
        assertThat(r.valid()).isTrue();
        assertThatThrownBy(() -> MetricAssertions.assertThat(r).saveBaseline(dir.resolve("base.json"), false))
                .isInstanceOf(AssertionError.class)
                .hasMessageStartingWith("the stream result was interrupted before its bound, so its metrics are neither "
                        + "gated nor saved as a baseline");
        assertThat(dir.resolve("base.json")).doesNotExist();
    }
}
