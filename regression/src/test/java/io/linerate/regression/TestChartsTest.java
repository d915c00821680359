package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Per-test charts: file names derived from test names, confined to the output directory. */
class TestChartsTest {
    @TempDir
    Path root;

    private static String twister(String... suites) {
        StringBuilder sb = new StringBuilder("{\"testsuites\":[");
        for (int i = 0; i < suites.length; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"name\":\"").append(suites[i]).append("\",\"platform\":\"frdm_k64f\","
                    + "\"status\":\"passed\",\"recording\":[{\"metric\":\"udp_upload_mbps\",\"value\":\"91.5\"}]}");
        }
        return sb.append("]}").toString();
    }

    private static GateReport report(String input) {
        return Gate.create().run(MetricReaders.read("twister.json", input));
    }

    @Test
    void eachTestGetsAChartNamedAfterItAndSeriesWithoutATestShareOne() throws IOException {
        Path out = Files.createDirectories(root.resolve("out"));
        String ktap = "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\",\"shape\":\"scalar\",\"time\":1,"
                + "\"unit\":\"Mbit/s\",\"value\":900}\n";
        GateReport r = new GateReport(List.copyOf(concat(report(twister("sample.net.zperf", "suite/case")).verdicts(),
                Gate.create().run(MetricReaders.read("run.log", ktap)).verdicts())), List.of());
        List<Path> written = TestCharts.write(new SafePaths(out), r, "zperf");
        Path real = out.toRealPath();
        assertThat(written).containsExactly(real.resolve("sample.net.zperf.svg"), real.resolve("suite/case.svg"),
                real.resolve("gate.svg"));
        assertThat(Files.readString(real.resolve("sample.net.zperf.svg"))).contains("<svg ")
                .contains("zperf: sample.net.zperf").contains("udp_upload_mbps").doesNotContain("tcp4_mbps");
        assertThat(Files.readString(real.resolve("gate.svg"))).contains("tcp4_mbps").doesNotContain("udp_upload_mbps");
    }

    @Test
    void aTestNameLeadingOutOfTheDirectoryIsRefusedNamingItAndNothingIsWritten() throws IOException {
        Path out = Files.createDirectories(root.resolve("out"));
        GateReport r = report(twister("sample.net.zperf", "../../escape"));
        assertThatThrownBy(() -> TestCharts.write(new SafePaths(out), r, "zperf"))
                .isInstanceOf(SafePaths.UnsafePathException.class)
                .hasMessage("path ../../escape.svg contains '..'; allowed: a relative path under the output directory");
        try (var files = Files.list(out)) {
            assertThat(files).isEmpty();
        }
        assertThat(root.resolve("escape.svg")).doesNotExist();
        assertThat(root.getParent().resolve("escape.svg")).doesNotExist();
    }

    private static List<Verdict> concat(List<Verdict> a, List<Verdict> b) {
        List<Verdict> out = new java.util.ArrayList<>(a);
        out.addAll(b);
        return out;
    }
}
