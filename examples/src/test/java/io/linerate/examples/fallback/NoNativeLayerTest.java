package io.linerate.examples.fallback;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.examples.cli.Linerate;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The command line where the native layer cannot load, as on another architecture (the child JVM
 * says it runs on {@value #ARCH}, for which no library is built): every pattern runs on NIO, and
 * what only the native layer reads is said to be unavailable, with why, never given as 0 or
 * silently left out.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class NoNativeLayerTest {
    /** An architecture the native layer has no library for. */
    static final String ARCH = "riscv64";
    /** Why the native layer does not load there, as its loader says. */
    private static final String WHY = "library is built for linux-x86_64 only, and os.arch is '" + ARCH + "'";
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {}


    private Run linerate(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dos.arch=" + ARCH, "-cp", System.getProperty("java.class.path"), Linerate.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile(dir, "out", ".txt");
        Path err = Files.createTempFile(dir, "err", ".txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(240, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("linerate " + String.join(" ", args) + " did not end within 240 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void aTcpStreamRunsOnNioAndSaysTcpInfoAndTheMssWereNotRead() throws Exception {
        Run r = linerate("stream", "--bytes", "4M", "--warmup", "0s", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode root = JSON.readTree(r.out());
        JsonNode d = root.get("detail");
        assertThat(d.has("tcp_info")).isFalse();
        assertThat(d.get("tcp_info_unavailable").asText()).contains(WHY);
        assertThat(d.get("options").get("tcp_mss_source").asText()).startsWith("derived: MTU ").contains("; not read: ")
                .contains(WHY);
        assertThat(root.get("metrics")).noneMatch(m -> m.get("name").asText().endsWith("_retransmits"));
        assertThat(d.get("intervals")).isNotEmpty().allSatisfy(i -> assertThat(i.has("retransmits")).isFalse());
    }

    @Test
    void theTextSaysSoToo() throws Exception {
        Run r = linerate("stream", "--bytes", "1M", "--warmup", "0s");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("# tcp_info (sender): unavailable: ").contains("; not read: ").contains(WHY)
                .doesNotContain("Retr");
    }

    @Test
    void aTcpPingPongRunsOnNioWithItsMssDerivedSayingWhy() throws Exception {
        Run r = linerate("pingpong", "--sizes", "32", "--minms", "10", "--maxms", "300", "--miniter", "10",
                "--maxiter", "100", "--warmupiter", "0", "--json");

        assertThat(r.exit()).as(r.err()).isZero();
        JsonNode d = JSON.readTree(r.out()).get("detail");
        assertThat(d.get("options").get("tcp_mss_source").asText()).contains("; not read: ").contains(WHY);
        // neither end's TCP_INFO can be read: both say why, and no figure is given as 0
        assertThat(d.has("tcp_info")).isFalse();
        assertThat(d.get("tcp_info_unavailable").get("client").asText()).contains(WHY);
        assertThat(d.get("tcp_info_unavailable").get("server").asText()).contains(WHY);
    }

    @Test
    void requestResponseRunsOnNioAndItsTextSaysTcpInfoWasNotRead() throws Exception {
        Run r = linerate("rr", "--duration", "300ms", "--warmup", "0s");

        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("# tcp_info (client): unavailable: ").contains("# tcp_info (server): unavailable: ")
                .contains(WHY).doesNotContain("retr ");
    }

    @Test
    void whatOnlyTheNativeLayerDoesIsRefusedSayingWhy() throws Exception {
        Run unixDatagram = linerate("pingpong", "--protocol", "unix_datagram", "--sizes", "32");
        assertThat(unixDatagram.exit()).as(unixDatagram.err()).isEqualTo(2);
        assertThat(unixDatagram.err()).contains("unix_datagram").contains("native").doesNotContain("\tat ");

        Run pinned = linerate("pingpong", "--affinity", "0;0", "--sizes", "32");
        assertThat(pinned.exit()).as(pinned.err()).isEqualTo(2);
        assertThat(pinned.err()).contains("--affinity cannot pin the").contains(WHY).doesNotContain("\tat ");
    }
}
