package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersLayout;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ctrl-C in the middle of a run, as a user gives it: SIGINT to a {@code linerate} JVM that is
 * measuring ends it with exit code 130 and one whole document in the format asked for, marked
 * interrupted, holding what was measured until then.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SigintProcessTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private LinerateChildren children;

    @BeforeEach
    void children() {
        children = new LinerateChildren(tmp);
    }

    @AfterEach
    void killChildren() throws InterruptedException {
        children.close();
    }

    private Process linerate(String... args) throws IOException {
        return children.start(args);
    }

    private String out(Process p) throws IOException {
        return children.out(p);
    }

    private String err(Process p) throws IOException {
        return children.err(p);
    }

    private void awaitMeasuring(Process p, BooleanSupplier measuring) throws IOException {
        children.awaitMeasuring(p, measuring);
    }

    private void interrupt(Process p) throws IOException, InterruptedException {
        children.interrupt(p);
    }

    private static long bytesReceived(Path countersFile) {
        return LinerateChildren.transferCounter(countersFile, CounterType.BYTES_RECEIVED);
    }

    /** A stream bound to a minute, measuring from the first byte, with its live counters in {@code dir}. */
    private Process stream(Path dir, String... format) throws IOException {
        List<String> args = new ArrayList<>(List.of("stream", "--duration", "60s", "--warmup", "0s", "--counters-dir",
                dir.toString()));
        args.addAll(List.of(format));
        Process p = linerate(args.toArray(String[]::new));
        Path file = dir.resolve(CountersLayout.fileName(p.pid()));
        awaitMeasuring(p, () -> bytesReceived(file) > 0);
        return p;
    }

    @Test
    void streamJsonEndsWithOneResultMarkedInterruptedHoldingTheBytesReceived() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = stream(dir, "--json");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED).isEqualTo(130);
        String out = out(p);
        assertThat(out.strip().lines()).as("one JSON line; stderr: %s", err(p)).hasSize(1);
        JsonNode r = JSON.readTree(out);
        assertThat(r.get("format").asText()).isEqualTo("linerate-result");
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        JsonNode detail = r.get("detail");
        assertThat(detail.get("bytes_received").asLong()).isPositive();
        assertThat(detail.get("window_bytes_received").asLong()).isPositive();
        assertThat(detail.get("duration_s").asDouble()).as("the window ended before its bound").isLessThan(60);
        assertThat(detail.get("interrupted").asBoolean()).isTrue();
        // nothing left behind: the transfer's counters file went with it
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void streamKtapEndsWithItsTestNotOkInterruptedAndTheTotals() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = stream(dir, "--ktap");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED).isEqualTo(130);
        List<String> lines = out(p).lines().toList();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                .containsExactly("not ok 1 tcp4 # interrupted");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0");
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void streamTextSaysItWasInterrupted() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = stream(dir, "--format=text");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED).isEqualTo(130);
        List<String> lines = out(p).lines().toList();
        assertThat(lines).anyMatch(l -> l.startsWith("tcp4 "));
        assertThat(lines.get(lines.size() - 1)).startsWith("# interrupted (SIGINT): ");
    }

    @Test
    void aRepeatedStreamStopsAtTheInterruptedRun() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = stream(dir, "--json", "--repeat", "3");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED);
        String out = out(p);
        assertThat(out.strip().lines()).as("the first run's line only; stderr: %s", err(p)).hasSize(1);
        JsonNode r = JSON.readTree(out);
        assertThat(r.get("run").asInt()).isEqualTo(1);
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void aRepeatedKtapStreamGivesEveryPlannedTestItsLineTheRunsNotStartedSkipped() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = stream(dir, "--ktap", "--repeat", "3");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED);
        List<String> lines = out(p).lines().toList();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..3");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok ")).containsExactly(
                "not ok 1 tcp4 # interrupted",
                "ok 2 tcp4 # SKIP interrupted (SIGINT) before this run started",
                "ok 3 tcp4 # SKIP interrupted (SIGINT) before this run started");
        assertThat(lines.get(lines.size() - 1)).isEqualTo("# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:2 error:0");
    }

    /** A ping-pong of 1-byte messages bound to a minute, logging every round trip to {@code log}. */
    private Process pingpong(Path log, String format) throws IOException {
        return awaitPingPong(linerate(pingpongArgs(log, format)), log);
    }

    private static String[] pingpongArgs(Path log, String format) {
        return new String[] {"pingpong", "--sizes", "1", "--minms", "60000", "--maxms", "120000", "--maxiter",
            "1000000000", "--warmupms", "0", "--warmupiter", "10", format, "--full-log", log.toString()};
    }

    private Process awaitPingPong(Process p, Path log) throws IOException {
        // the full log's third column is the phase: 1 is a round trip of the measured part
        Pattern measured = Pattern.compile("^\\d+,\\d+,1,");
        awaitMeasuring(p, () -> {
            try (Stream<String> lines = Files.lines(log)) {
                return lines.anyMatch(l -> measured.matcher(l).find());
            } catch (IOException | UncheckedIOException e) {
                return false; // not made yet
            }
        });
        return p;
    }

    @Test
    void ctrlCThatReachesLinerateAndAForwardingWrapperIsOneCtrlC() throws Exception {
        // Ctrl-C in a terminal reaches the whole process group: timeout gets it and forwards it, so
        // linerate gets SIGINT twice, and the second must not end it before its result is out
        Path log = tmp.resolve("log.csv");
        Process p = awaitPingPong(children.startUnderTimeout(pingpongArgs(log, "--json")), log);
        children.interruptGroup(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED);
        String out = out(p);
        assertThat(out.strip().lines()).as("one JSON line; stderr: %s", err(p)).hasSize(1);
        assertThat(JSON.readTree(out).get("interrupted").asBoolean()).isTrue();
    }

    @Test
    void pingpongJsonEndsWithOneResultMarkedInterruptedHoldingTheRoundTrips() throws Exception {
        Process p = pingpong(tmp.resolve("log.csv"), "--json");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED).isEqualTo(130);
        String out = out(p);
        assertThat(out.strip().lines()).as("one JSON line; stderr: %s", err(p)).hasSize(1);
        JsonNode r = JSON.readTree(out);
        assertThat(r.get("interrupted").asBoolean()).isTrue();
        assertThat(r.get("test").asText()).isEqualTo("pingpong_tcp");
        JsonNode size = r.get("detail").get("results").get(0);
        assertThat(size.get("size").asInt()).isEqualTo(1);
        assertThat(size.get("iterations").asLong()).isPositive();
        assertThat(size.get("measured_ns").asLong()).as("cut short of its minute").isLessThan(60_000_000_000L);
    }

    @Test
    void pingpongKtapEndsWithItsTestNotOkInterrupted() throws Exception {
        Process p = pingpong(tmp.resolve("log.csv"), "--ktap");
        interrupt(p);
        assertThat(p.exitValue()).as(err(p)).isEqualTo(Linerate.INTERRUPTED).isEqualTo(130);
        List<String> lines = out(p).lines().toList();
        assertThat(lines.subList(0, 2)).containsExactly("KTAP version 1", "1..1");
        assertThat(lines).filteredOn(l -> l.startsWith("ok ") || l.startsWith("not ok "))
                .containsExactly("not ok 1 pingpong_tcp # interrupted");
        assertThat(lines.get(lines.size() - 1)).startsWith("# Totals: pass:0 fail:1 ");
    }
}
