package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.CountersLayout;
import io.linerate.core.live.LiveCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Live counters read from another JVM, and the files killed processes leave. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class LiveCountersProcessTest {
    /** Bound on every wait for a child JVM; generous, since two cores may be busy with other work. */
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(90);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    @TempDir
    Path tmp;

    private final List<Process> children = new ArrayList<>();

    @AfterEach
    void killChildren() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }

    /** Starts {@code linerate ARGS} in a JVM of its own, output to files in {@code tmp}. */
    private Process linerate(boolean agronaOption, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        if (agronaOption) {
            cmd.add(LiveCounters.AGRONA_JVM_OPTION);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Linerate.class.getName()));
        cmd.addAll(List.of(args));
        int n = children.size();
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(tmp.resolve("out-" + n).toFile())
                .redirectError(tmp.resolve("err-" + n).toFile())
                .start();
        children.add(p);
        return p;
    }

    private String err(Process p) throws IOException {
        return Files.readString(tmp.resolve("err-" + children.indexOf(p)));
    }

    private static Optional<CounterGroup> transfer(Path file) {
        try {
            return CountersFileReader.read(file).flatMap(pc -> pc.groups().stream()
                    .filter(g -> g.kind() == CounterGroup.Kind.TRANSFER).findFirst());
        } catch (IOException e) {
            return Optional.empty(); // removed between listing and reading
        }
    }

    private static void ended(Process p) throws InterruptedException {
        assertThat(p.waitFor(DEADLINE_NANOS, TimeUnit.NANOSECONDS)).as("child ended").isTrue();
    }

    @Test
    void whileAStreamRunsThisJvmReadsNonDecreasingByteCountsAndTheFileGoesAfterIt() throws Exception {
        Path dir = tmp.resolve("counters");
        Process child = linerate(true, "stream", "--duration", "3s", "--counters-dir", dir.toString());
        Path file = dir.resolve(CountersLayout.fileName(child.pid()));
        List<long[]> readings = new ArrayList<>();
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (child.isAlive() && System.nanoTime() < deadline) {
            transfer(file).ifPresent(g -> readings.add(new long[] {
                g.value(CounterType.BYTES_SENT).orElseThrow(), g.value(CounterType.BYTES_RECEIVED).orElseThrow()}));
            LockSupport.parkNanos(POLL_NANOS);
        }
        ended(child);
        assertThat(readings).as("readings of the running transfer; child stderr: %s", err(child)).isNotEmpty();
        for (int i = 1; i < readings.size(); i++) {
            assertThat(readings.get(i)[0]).as("bytes sent, reading %d", i).isGreaterThanOrEqualTo(readings.get(i - 1)[0]);
            assertThat(readings.get(i)[1]).as("bytes received, reading %d", i).isGreaterThanOrEqualTo(readings.get(i - 1)[1]);
        }
        assertThat(readings.get(readings.size() - 1)[0]).as("bytes sent by the end of the readings").isPositive();
        assertThat(file).as("removed when the run ended").doesNotExist();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void afterKill9TheNextRunReportsTheStaleFileAndRemovesIt() throws Exception {
        Path dir = tmp.resolve("counters");
        Process killed = linerate(true, "stream", "--duration", "60s", "--counters-dir", dir.toString());
        Path file = dir.resolve(CountersLayout.fileName(killed.pid()));
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (transfer(file).isEmpty() && killed.isAlive() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
        }
        assertThat(transfer(file)).as("the child's transfer is registered; child stderr: %s", err(killed)).isPresent();
        killed.destroyForcibly();
        ended(killed);
        assertThat(file).as("SIGKILL runs no shutdown hook").exists();

        Process next = linerate(true, "stream", "--duration", "200ms", "--warmup", "0s", "--counters-dir", dir.toString());
        ended(next);
        assertThat(err(next)).contains("removed stale counters file " + file + ": process " + killed.pid()
                + " is not running");
        assertThat(file).doesNotExist();
        assertThat(dir).isEmptyDirectory();
    }

    @Test
    void withoutAgronasJvmOptionTheStreamRunsAndSaysLiveCountersAreOff() throws Exception {
        Path dir = tmp.resolve("counters");
        Process p = linerate(false, "stream", "--duration", "200ms", "--warmup", "0s", "--counters-dir", dir.toString());
        ended(p);
        assertThat(p.exitValue()).as(err(p)).isZero();
        assertThat(err(p)).contains("live counters are off: Agrona cannot reach jdk.internal.misc.Unsafe; start the JVM with "
                + LiveCounters.AGRONA_JVM_OPTION);
        assertThat(dir).doesNotExist();
    }

}
