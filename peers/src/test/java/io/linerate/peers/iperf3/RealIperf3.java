package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.testsupport.PeerTool;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the real {@code iperf3 -c 127.0.0.1 -p PORT ...} against a linerate iperf3 server; every wait is bounded. */
final class RealIperf3 {
    private static final ObjectMapper JSON = new ObjectMapper();

    private RealIperf3() {}

    /** @return the binary's path; the calling test class is skipped, with the reason, where it is missing */
    static String require() {
        return PeerTool.require("iperf3", "iperf3");
    }

    record Run(int exit, String out) {
        JsonNode json() throws IOException {
            return JSON.readTree(out);
        }
    }

    /** Starts the client, its output and errors in one stream. */
    static Process start(String iperf3, Iperf3Agent a, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(iperf3, "-c", "127.0.0.1", "-p", Integer.toString(a.address().getPort())));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** Runs the client to its end, bounded by 60 s. */
    static Run run(String iperf3, Iperf3Agent a, String... args) throws Exception {
        Process p = start(iperf3, a, args);
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = p.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return e.toString();
            }
        });
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("iperf3 " + String.join(" ", args) + " did not end within 60 s");
        }
        return new Run(p.exitValue(), out.get(60, TimeUnit.SECONDS));
    }
}
