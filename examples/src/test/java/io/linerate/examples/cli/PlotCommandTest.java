package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class PlotCommandTest {
    @TempDir
    Path dir;
    String err;

    int plot(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        CommandLine cl = Linerate.commandLine(new PlotCommand());
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        int code = cl.execute(args);
        err = e.toString();
        assertThat(err).doesNotContain("Exception");
        return code;
    }

    @Test
    void writesTheCurrentValuesAloneWithoutABaseline() throws Exception {
        Files.writeString(dir.resolve("run.log"), GateCommandTest.run(9120.5, 1234.567, 0.0123));
        assertThat(plot("--input", f("run.log"), "--output", f("chart.svg"), "--title", "loopback <nio>")).isZero();
        String svg = Files.readString(dir.resolve("chart.svg"));
        assertThat(svg).contains("<title id=\"chart-title\">loopback &lt;nio&gt;</title>")
                .contains("current values only").doesNotContain("n/a").contains(">Mbit/s<").contains(">ms<");
    }

    @Test
    void badInputIsAnErrorEvenThoughTheChartIsWritten() throws Exception {
        Files.writeString(dir.resolve("bad.log"), "# ktap-metric-json: {\"host\":\"local\",\"name\":\"tcp4_mbps\"\n");
        assertThat(plot("--input", f("bad.log"), "--output", f("chart.svg"))).isEqualTo(1);
        assertThat(err).startsWith("plot: ").contains("bad.log:1");
        assertThat(dir.resolve("chart.svg")).exists();
    }

    @Test
    void outputIsRequiredAndUsedAsTyped() throws Exception {
        Files.writeString(dir.resolve("run.log"), GateCommandTest.run(100, 100, 1));
        assertThat(plot("--input", f("run.log"))).isEqualTo(2);
        assertThat(err).contains("Missing required option: '--output=FILE.svg'");
        // a path with '..' that the user typed is theirs: sub/../chart.svg is dir/chart.svg
        Files.createDirectories(dir.resolve("sub"));
        assertThat(plot("--input", f("run.log"), "--output", dir.resolve("sub/../chart.svg").toString())).isZero();
        assertThat(dir.resolve("chart.svg")).exists();
    }

    String f(String name) {
        return dir.resolve(name).toString();
    }
}
