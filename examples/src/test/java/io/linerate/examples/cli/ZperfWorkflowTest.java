package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * zperf_regression.py's documented commands, typed as its documentation types them (relative
 * paths, from a directory beside the build tree), run by {@code linerate gate} in a child JVM whose
 * working directory is that directory: {@code --base-dir .. --twister-json
 * ../build/zperf_base/twister.json --save baseline.json}, then {@code --baseline baseline.json
 * --tolerance 5} and {@code --plot}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ZperfWorkflowTest {
    private static final String UDP = "sample.net.zperf.netusb_ecm/udp_upload_mbps{platform=frdm_k64f}@local";

    @TempDir
    Path tmp;

    record Exit(int code, String out, String err) {}

    private Exit gate(Path workDir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Linerate.class.getName(), "gate"));
        cmd.addAll(List.of(args));
        Path out = tmp.resolve("stdout");
        Path err = tmp.resolve("stderr");
        Process p = new ProcessBuilder(cmd).directory(workDir.toFile()).redirectOutput(out.toFile())
                .redirectError(err.toFile()).start();
        if (!p.waitFor(100, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("child JVM did not end: " + cmd);
        }
        return new Exit(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    /** Writes {@code build/<name>/twister.json}: zperf's suite on one board, its upload rates as twister records them. */
    private void twister(String name, String udpMbps, String tcpMbps) throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("build").resolve(name));
        Files.writeString(dir.resolve("twister.json"), "{\"testsuites\":[{\"name\":\"sample.net.zperf.netusb_ecm\","
                + "\"platform\":\"frdm_k64f\",\"status\":\"passed\",\"recording\":["
                + "{\"metric\":\"udp_upload_mbps\",\"value\":\"" + udpMbps + "\"},"
                + "{\"metric\":\"tcp_upload_mbps\",\"value\":\"" + tcpMbps + "\"}]}]}");
    }

    private static List<String> svgs(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".svg")).sorted().toList();
        }
    }

    @Test
    void theDocumentedZperfCommandsRun() throws Exception {
        twister("zperf_base", "91.53", "88.20");
        twister("zperf_new", "90.10", "88.90");
        twister("zperf_slow", "80.00", "88.90");
        Path work = Files.createDirectories(tmp.resolve("zephyr"));

        Exit save = gate(work, "--base-dir", "..", "--twister-json", "../build/zperf_base/twister.json",
                "--save", "baseline.json");
        assertThat(save.code()).as(save.out() + save.err()).isZero();
        // a typed path is used as typed: the baseline is in the working directory, not under --base-dir
        assertThat(work.resolve("baseline.json")).exists();
        assertThat(tmp.resolve("baseline.json")).doesNotExist();

        // 90.10 against 91.53 is -1.6 %, 88.90 against 88.20 +0.8 %: within 5 %
        Exit same = gate(work, "--base-dir", "..", "--twister-json", "../build/zperf_new/twister.json",
                "--baseline", "baseline.json", "--tolerance", "5", "--plot");
        assertThat(same.code()).as(same.out() + same.err()).isZero();
        assertThat(same.out()).contains("# " + UDP + ": pass -1.6% ").containsPattern("\nok \\d+ " + Pattern.quote(UDP) + "\n")
                .contains("# Totals: pass:2 fail:0");
        // the chart is named after the suite, a name from the data, so it is written under --base-dir
        assertThat(svgs(tmp)).containsExactly("sample.net.zperf.netusb_ecm.svg");
        assertThat(svgs(work)).isEmpty();
        assertThat(Files.readString(tmp.resolve("sample.net.zperf.netusb_ecm.svg"))).contains("udp_upload_mbps");

        // 80.00 against 91.53 is -12.6 %
        Exit slow = gate(work, "--base-dir", "..", "--twister-json", "../build/zperf_slow/twister.json",
                "--baseline", "baseline.json", "--tolerance", "5", "--plot");
        assertThat(slow.code()).as(slow.out() + slow.err()).isEqualTo(1);
        assertThat(slow.out()).containsPattern("\nnot ok \\d+ " + Pattern.quote(UDP) + " # regressed -12\\.6% ");
    }
}
