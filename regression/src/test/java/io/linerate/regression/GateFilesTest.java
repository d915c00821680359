package io.linerate.regression;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What the gate's files refuse: pipes and devices (which could block or never end), and the damage a forced save could do. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GateFilesTest {
    @TempDir
    Path dir;

    private static final String LINE = "ZPERF-RESULT tcp4_mbps=100\n";

    @Test
    void aPipeOrDeviceIsRefusedBeforeItIsOpened() throws Exception {
        Path fifo = dir.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        // opening a pipe for reading would wait for a writer for ever
        assertThatThrownBy(() -> GateFiles.readInputs(List.of(fifo))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("input " + fifo + " is not a regular file (a pipe or device); allowed: a file");
        assertThatThrownBy(() -> GateFiles.readBaseline(Path.of("/dev/zero"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("baseline /dev/zero is not a regular file (a pipe or device); allowed: a file");
    }

    @Test
    void aByteThatIsNotUtf8DoesNotFailTheFile() throws IOException {
        // "# cpu 45" + 0xB0 (a Latin-1 degree sign) + "C", then a metric line
        Path in = dir.resolve("latin1.log");
        byte[] head = "# cpu 45".getBytes(StandardCharsets.US_ASCII);
        byte[] rest = ("C\n" + LINE).getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + 1 + rest.length];
        System.arraycopy(head, 0, all, 0, head.length);
        all[head.length] = (byte) 0xB0;
        System.arraycopy(rest, 0, all, head.length + 1, rest.length);
        Files.write(in, all);
        MetricSet s = GateFiles.readInputs(List.of(in));
        assertThat(s.errors()).isEmpty();
        assertThat(s.observations()).singleElement().satisfies(o -> assertThat(o.value()).isEqualTo(100.0));
    }

    @Test
    void aForcedSaveReplacesOnlyARegularFileAndWritesThroughALink() throws IOException {
        Baseline b = Baseline.of(MetricReaders.read("run.log", LINE), GateTest.ENV, GateTest.CREATED);
        assertThatThrownBy(() -> GateFiles.writeBaseline(Path.of("/dev/null"), b, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("baseline /dev/null is not a regular file");
        assertThat(Files.isRegularFile(Path.of("/dev/null"))).isFalse();

        Path real = Files.writeString(dir.resolve("real.json"), "old");
        Path link = Files.createSymbolicLink(dir.resolve("link.json"), real);
        GateFiles.writeBaseline(link, b, true);
        assertThat(Files.isSymbolicLink(link)).isTrue();
        assertThat(Files.readString(real)).isEqualTo(b.toJson());
    }

    @Test
    void aKeyGivenTwiceInAPolicyFileIsRefused() {
        assertThatThrownBy(() -> Policies.parseFile("p.json", "[{\"name\":\"a_mbps\",\"regression\":{\"better\":\"higher\","
                + "\"compare\":\"p50\",\"relative_tolerance\":0.05,\"relative_tolerance\":0.9},\"summarize\":\"distribution\"}]"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key \"relative_tolerance\" is given twice in one object");
    }
}
