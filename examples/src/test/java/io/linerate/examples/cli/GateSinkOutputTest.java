package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.MetricSink;
import io.linerate.core.sink.KtapSink;
import io.linerate.core.sink.ResultLineSink;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Gates logs written by linerate's own sinks (result lines and ktap lines together, as
 * {@code linerate loopback --repeat 3 --ktap} prints them), so that the reader and the writers
 * cannot drift apart.
 */
class GateSinkOutputTest {
    @TempDir
    Path dir;
    String out;

    static String log(double... tcpMbps) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PrintStream ps = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        try (MetricSink sink = MetricSink.tee(List.of(new ResultLineSink(ps), new KtapSink(ps)))) {
            for (int run = 0; run < tcpMbps.length; run++) {
                sink.accept(Metric.of("tcp4_mbps", tcpMbps[run], "Mbit/s", 2.5 * (run + 1), Better.HIGHER));
                sink.accept(Metric.of("udp4_jitter_ms", 0.0123, "ms", 2.5 * (run + 1), Better.LOWER));
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    int gate(String... args) {
        StringWriter o = new StringWriter();
        CommandLine cl = Linerate.commandLine(new GateCommand());
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(new StringWriter()));
        int code = cl.execute(args);
        out = o.toString();
        return code;
    }

    String f(String name) {
        return dir.resolve(name).toString();
    }

    @Test
    void savedBaselineThenUnchangedRerunPassesAndSlowerRerunFails() throws Exception {
        String base = log(9120.5, 9080.25, 9133.0);
        assertThat(base).contains("ZPERF-RESULT tcp4_mbps=9120.500").contains("# ktap-metric-json: ")
                .contains("# ktap-metric-policy-json: ").endsWith("ZPERF-DONE" + System.lineSeparator());
        Files.writeString(dir.resolve("base.log"), base);
        Files.writeString(dir.resolve("same.log"), log(9100.0, 9150.0, 9090.0));
        Files.writeString(dir.resolve("slow.log"), log(7000.0, 7100.0, 6900.0));
        assertThat(gate("--input", f("base.log"), "--save", f("baseline.json"))).isZero();
        // the ZPERF-RESULT lines repeat the ktap values and are not counted twice
        assertThat(Files.readString(dir.resolve("baseline.json")))
                .contains("\"samples\" : [ 9120.5, 9080.25, 9133.0 ]");
        assertThat(gate("--input", f("same.log"), "--baseline", f("baseline.json"))).isZero();
        assertThat(out).contains("# Totals: pass:2 fail:0");
        // p50 7000 against p50 9120.5: -23.2 %
        assertThat(gate("--input", f("slow.log"), "--baseline", f("baseline.json"))).isEqualTo(1);
        assertThat(out).contains("not ok 1 tcp4_mbps@local # regressed -23.2% (base 9120.5, cur 7000 Mbit/s, tol 5%)");
    }
}
