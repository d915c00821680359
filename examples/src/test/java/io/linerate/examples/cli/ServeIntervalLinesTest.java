package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.testsupport.PeerTool;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code linerate serve}'s interval lines, as {@code iperf3 -s} prints them, for each of its three
 * servers against a real client: {@code iperf3 -c} against {@code serve --iperf3}, {@code iperf -c}
 * against {@code serve --iperf2}, and linerate's own {@code stream --peer} against {@code serve}.
 * Each test's lines add up to no more than the summary the server gives of it (an identity, whatever
 * the rate), the summary's count is the one the client was told where the client shows it, and
 * {@code --quiet} prints none. Real clients are skipped off CI where they are not installed.
 */
@Timeout(120)
class ServeIntervalLinesTest {
    /** {@code [  1]  0.00- 1.00 sec  1589248 Bytes  12.71 Mbits/sec ...}: test, start, end, bytes, the rest. */
    private static final Pattern LINE = Pattern.compile("^\\[\\s*(\\d+)(?:\\.\\d+)?\\]\\s+(\\d+\\.\\d+)-\\s*(\\d+\\.\\d+) sec"
            + "\\s+(\\d+) Bytes\\s+(.*)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    private record Line(long test, double start, double end, long bytes, String rest) {
        boolean summary() {
            return rest.contains("  receiver") || rest.contains("  sender");
        }

        boolean omitted() {
            return rest.endsWith("(omitted)");
        }
    }

    private static List<Line> parse(List<String> lines) {
        List<Line> out = new ArrayList<>();
        for (String l : lines) {
            Matcher m = LINE.matcher(l);
            if (m.matches()) {
                out.add(new Line(Long.parseLong(m.group(1)), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
                        Long.parseLong(m.group(4)), m.group(5)));
            }
        }
        return out;
    }

    private static boolean receiverSummary(String l) {
        Matcher m = LINE.matcher(l);
        return m.matches() && m.group(5).contains("  receiver");
    }

    /** Asserts that test 1 has interval lines that add up to no more than its receiver summary; returns that summary. */
    private static Line intervalsAddUp(List<String> printed) {
        List<Line> lines = parse(printed);
        List<Line> intervals = lines.stream().filter(l -> l.test() == 1 && !l.summary()).toList();
        Line summary = lines.stream().filter(l -> l.test() == 1 && l.summary() && l.rest().contains("receiver"))
                .findFirst().orElseThrow(() -> new AssertionError("no receiver summary in " + printed));
        assertThat(intervals).as(String.join("\n", printed)).isNotEmpty();
        long sum = intervals.stream().filter(l -> !l.omitted()).mapToLong(Line::bytes).sum();
        assertThat(sum).as(String.join("\n", printed)).isPositive().isLessThanOrEqualTo(summary.bytes());
        // each line starts where the one before it ended
        for (int i = 1; i < intervals.size(); i++) {
            assertThat(intervals.get(i).start()).isEqualTo(intervals.get(i - 1).end());
        }
        return summary;
    }

    private record Client(int exit, String out) {}

    /** Runs a client process to its end, bounded by 60 s. */
    private static Client run(List<String> cmd) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] bytes;
        try (InputStream in = p.getInputStream()) {
            bytes = in.readAllBytes();
        }
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(cmd + " did not end within 60 s");
        }
        return new Client(p.exitValue(), new String(bytes, StandardCharsets.UTF_8));
    }

    private static Client iperf3(ServeRun serve, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(PeerTool.require("iperf3", "iperf3"), "-c", "127.0.0.1", "-p",
                Integer.toString(serve.port()), "-J"));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    @Test
    void serveIperf3PrintsAnIntervalLinePerSecondThatAddUpToTheBytesIperf3IsToldTheServerReceived() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        try (ServeRun serve = ServeRun.start("serve", "--iperf3", "--port", "0")) {
            Client c = iperf3(serve, "-t", "2", "-b", "20M");
            assertThat(c.exit()).as(c.out()).isZero();
            serve.await(ServeIntervalLinesTest::receiverSummary, 30);
            Line summary = intervalsAddUp(serve.lines());
            // the server's results, as iperf3 prints them: its receiver count is the server's
            JsonNode end = JSON.readTree(c.out()).path("end");
            assertThat(summary.bytes()).isEqualTo(end.path("sum_received").path("bytes").asLong());
            assertThat(serve.lines()).anyMatch(l -> l.startsWith("[  1] accepted 127.0.0.1 port ")
                    && l.endsWith(": iperf3 TCP, 1 stream(s)"));
        }
    }

    @Test
    void serveIperf3UdpLinesShowJitterAndLostOverTotal() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        try (ServeRun serve = ServeRun.start("serve", "--iperf3", "--port", "0")) {
            Client c = iperf3(serve, "-u", "-t", "2", "-b", "5M", "-l", "1000");
            assertThat(c.exit()).as(c.out()).isZero();
            serve.await(ServeIntervalLinesTest::receiverSummary, 30);
            Line summary = intervalsAddUp(serve.lines());
            // " ... Mbits/sec  0.012 ms  0/625 (0%)": jitter, then lost/total datagrams
            Pattern udp = Pattern.compile(".*bits/sec  (\\d+\\.\\d+|n/a) ms  (-?\\d+)/(\\d+) .*");
            assertThat(parse(serve.lines())).filteredOn(l -> !l.summary()).allMatch(l -> udp.matcher(l.rest()).matches());
            Matcher m = udp.matcher(summary.rest());
            assertThat(m.matches()).as(summary.rest()).isTrue();
            // every datagram the server counts is 1000 bytes: bytes = 1000 x (total - lost)
            long total = Long.parseLong(m.group(3));
            long lost = Long.parseLong(m.group(2));
            assertThat(summary.bytes()).isEqualTo(1000 * (total - lost));
            // the client's count of what it sent is the total the server reports
            JsonNode sum = JSON.readTree(c.out()).path("end").path("sum");
            assertThat(total).isEqualTo(sum.path("packets").asLong());
        }
    }

    @Test
    void quietPrintsNoIntervalLinesNorSummaries() throws Exception {
        PeerTool.require("iperf3", "iperf3");
        List<String> printed;
        try (ServeRun serve = ServeRun.start("serve", "--iperf3", "--port", "0", "--quiet")) {
            Client c = iperf3(serve, "-t", "1", "-b", "10M");
            assertThat(c.exit()).as(c.out()).isZero();
            assertThat(JSON.readTree(c.out()).path("end").path("sum_received").path("bytes").asLong()).isPositive();
            serve.close();
            printed = serve.lines();
        }
        assertThat(printed).hasSize(1);
        assertThat(printed.get(0)).startsWith("# linerate ").contains("iperf3 server on 127.0.0.1 port ");
        assertThat(parse(printed)).isEmpty();
    }

    @Test
    void serveIperf2PrintsIntervalLinesOfTcpAndUdpTests() throws Exception {
        String iperf = PeerTool.require("iperf", "iperf");
        try (ServeRun serve = ServeRun.start("serve", "--iperf2", "--port", "0")) {
            Client tcp = run(List.of(iperf, "-c", "127.0.0.1", "-p", Integer.toString(serve.port()), "-t", "2"));
            assertThat(tcp.exit()).as(tcp.out()).isZero();
            serve.await(ServeIntervalLinesTest::receiverSummary, 30);
            intervalsAddUp(serve.lines());

            Client udp = run(List.of(iperf, "-c", "127.0.0.1", "-p", Integer.toString(serve.port()), "-u", "-t", "2",
                    "-b", "2M", "-l", "1000"));
            assertThat(udp.exit()).as(udp.out()).isZero();
            serve.await(l -> receiverSummary(l) && l.startsWith("[  2]"), 30);
            List<Line> second = parse(serve.lines()).stream().filter(l -> l.test() == 2).toList();
            Line summary = second.stream().filter(Line::summary).findFirst().orElseThrow();
            long sum = second.stream().filter(l -> !l.summary()).mapToLong(Line::bytes).sum();
            assertThat(sum).isPositive().isLessThanOrEqualTo(summary.bytes());
            assertThat(summary.rest()).matches(".*bits/sec  \\d+\\.\\d+ ms  \\d+/\\d+ .*receiver");
        }
    }

    @Test
    void serveAgentPrintsIntervalLinesThatAddUpToTheWindowTheClientIsSent() throws Exception {
        try (ServeRun serve = ServeRun.start("serve", "--port", "0")) {
            StringWriter json = new StringWriter();
            StringWriter err = new StringWriter();
            int code = Linerate.execute(new PrintWriter(json), new PrintWriter(err), "stream", "--peer",
                    "127.0.0.1:" + serve.port(), "--duration", "1s", "--warmup", "200ms", "--interval", "250ms", "--json");
            assertThat(code).as(err.toString()).isIn(0, 1);
            serve.await(ServeIntervalLinesTest::receiverSummary, 30);
            List<Line> lines = parse(serve.lines());
            long test = lines.get(0).test();
            Line summary = lines.stream().filter(l -> l.test() == test && l.summary()).findFirst().orElseThrow();
            List<Line> intervals = lines.stream().filter(l -> l.test() == test && !l.summary()).toList();
            // the warm-up's lines are marked, the window's add up to the window the agent counted
            assertThat(intervals).anyMatch(Line::omitted).anyMatch(l -> !l.omitted());
            long window = intervals.stream().filter(l -> !l.omitted()).mapToLong(Line::bytes).sum();
            assertThat(window).isLessThanOrEqualTo(summary.bytes());
            // the client's result holds the agent's own window count, as the agent sent it
            JsonNode remote = JSON.readTree(json.toString()).path("detail").path("remote");
            assertThat(remote.path("role").asText()).isEqualTo("receiver");
            assertThat(summary.bytes()).isEqualTo(remote.path("window_bytes").asLong());
        }
    }
}
