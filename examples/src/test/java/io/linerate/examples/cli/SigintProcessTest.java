package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.CountersLayout;
import io.linerate.core.live.LiveCounters;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
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
    /** Bound on every wait for a child JVM; generous, since two cores may be busy with other work. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(90);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    /** SIGINT's bit in {@code /proc/self/status}'s {@code SigIgn} mask: signal 2, bit 1. */
    private static final long SIGINT_BIT = 1L << 1;

    @TempDir
    Path tmp;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /**
     * Starts {@code linerate ARGS} in a JVM of its own, output to files in {@code tmp}. A process
     * started in the background by a shell without job control ignores SIGINT, and so would the
     * child: then it starts through {@code env --default-signal=INT}, as from a terminal.
     */
    private Process linerate(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (sigintIgnoredHere()) {
            cmd.addAll(List.of("env", "--default-signal=INT"));
        }
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"), Linerate.class.getName()));
        cmd.addAll(List.of(args));
        int n = children.size();
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(tmp.resolve("out-" + n).toFile())
                .redirectError(tmp.resolve("err-" + n).toFile())
                .start();
        children.add(p);
        return p;
    }

    private static boolean sigintIgnoredHere() throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
            if (line.startsWith("SigIgn:")) {
                return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).trim(), 16) & SIGINT_BIT) != 0;
            }
        }
        return false;
    }

    private String out(Process p) throws IOException {
        return Files.readString(tmp.resolve("out-" + children.indexOf(p)));
    }

    private String err(Process p) throws IOException {
        return Files.readString(tmp.resolve("err-" + children.indexOf(p)));
    }

    /** Waits, bounded, until {@code measuring} holds while {@code p} runs. */
    private void awaitMeasuring(Process p, BooleanSupplier measuring) throws IOException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!measuring.getAsBoolean() && p.isAlive() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
        }
        assertThat(measuring.getAsBoolean()).as("the child is measuring; stderr: %s", err(p)).isTrue();
    }

    /** Sends SIGINT with {@code kill -INT}, as Ctrl-C does, and waits for the child to end. */
    private void interrupt(Process p) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).redirectErrorStream(true).start();
        assertThat(kill.waitFor(DEADLINE_NANOS, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -INT").isZero();
        assertThat(p.waitFor(DEADLINE_NANOS, TimeUnit.NANOSECONDS)).as("child ended after SIGINT").isTrue();
    }

    private static long bytesReceived(Path countersFile) {
        try {
            return CountersFileReader.read(countersFile).flatMap(pc -> pc.groups().stream()
                    .filter(g -> g.kind() == CounterGroup.Kind.TRANSFER).findFirst())
                    .map(g -> g.value(CounterType.BYTES_RECEIVED).orElse(0)).orElse(0L);
        } catch (IOException e) {
            return 0; // not there yet, or removed between listing and reading
        }
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

    /** A ping-pong of 1-byte messages bound to a minute, logging every round trip to {@code log}. */
    private Process pingpong(Path log, String format) throws IOException {
        Process p = linerate("pingpong", "--sizes", "1", "--minms", "60000", "--maxms", "120000", "--maxiter",
                "1000000000", "--warmupms", "0", "--warmupiter", "10", format, "--full-log", log.toString());
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
