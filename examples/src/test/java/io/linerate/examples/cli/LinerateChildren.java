package io.linerate.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.linerate.core.live.CounterGroup;
import io.linerate.core.live.CounterType;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.LiveCounters;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * {@code linerate} JVMs a test starts as a user would, each with its output in files, and the
 * signs that one is measuring: its live counters, or the I/O it did ({@code /proc/PID/io}).
 * Closing kills those still running.
 */
final class LinerateChildren implements AutoCloseable {
    /** Bound on every wait for a child JVM; generous, since two cores may be busy with other work. */
    static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(90);
    private static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    /** SIGINT's bit in {@code /proc/self/status}'s {@code SigIgn} mask: signal 2, bit 1. */
    private static final long SIGINT_BIT = 1L << 1;

    private final Path dir;
    private final List<Process> children = new ArrayList<>();

    /** @param dir where the children's output files go */
    LinerateChildren(Path dir) {
        this.dir = dir;
    }

    /**
     * Starts {@code linerate ARGS} in a JVM of its own, output to files in the directory. A process
     * started in the background by a shell without job control ignores SIGINT, and so would the
     * child: then it starts through {@code env --default-signal=INT}, as from a terminal.
     */
    Process start(String... args) throws IOException {
        return start(List.of(), args);
    }

    /**
     * As {@link #start(String...)}, under {@code timeout} in a session and process group of its own
     * ({@code setsid}), as a user runs {@code timeout 600 linerate ...} from a terminal: Ctrl-C
     * there reaches both, and {@code timeout} forwards it too ({@link #interruptGroup}).
     */
    Process startUnderTimeout(String... args) throws IOException {
        return start(List.of("setsid", "timeout", "300"), args);
    }

    private Process start(List<String> wrapper, String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        if (sigintIgnoredHere()) {
            cmd.addAll(List.of("env", "--default-signal=INT"));
        }
        cmd.addAll(wrapper);
        cmd.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                LiveCounters.AGRONA_JVM_OPTION, "-cp", System.getProperty("java.class.path"), Linerate.class.getName()));
        cmd.addAll(List.of(args));
        int n = children.size();
        Process p = new ProcessBuilder(cmd)
                .redirectOutput(dir.resolve("out-" + n).toFile())
                .redirectError(dir.resolve("err-" + n).toFile())
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

    String out(Process p) throws IOException {
        return Files.readString(dir.resolve("out-" + children.indexOf(p)));
    }

    String err(Process p) throws IOException {
        return Files.readString(dir.resolve("err-" + children.indexOf(p)));
    }

    /** Waits, bounded, until {@code measuring} holds while {@code p} runs. */
    void awaitMeasuring(Process p, BooleanSupplier measuring) throws IOException {
        long deadline = System.nanoTime() + DEADLINE_NANOS;
        while (!measuring.getAsBoolean() && p.isAlive() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(POLL_NANOS);
        }
        assertThat(measuring.getAsBoolean()).as("the child is measuring; stderr: %s", err(p)).isTrue();
    }

    /** Sends SIGINT with {@code kill -INT}, as Ctrl-C does, and waits for the child to end. */
    void interrupt(Process p) throws IOException, InterruptedException {
        signal(p, Long.toString(p.pid()));
    }

    /**
     * Sends SIGINT to the process group of a child started with {@link #startUnderTimeout}, as
     * Ctrl-C in a terminal does, and waits for the child to end.
     */
    void interruptGroup(Process p) throws IOException, InterruptedException {
        signal(p, "-" + p.pid());
    }

    private void signal(Process p, String target) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-INT", "--", target).redirectErrorStream(true).start();
        assertThat(kill.waitFor(DEADLINE_NANOS, TimeUnit.NANOSECONDS)).isTrue();
        assertThat(kill.exitValue()).as("kill -INT").isZero();
        assertThat(p.waitFor(DEADLINE_NANOS, TimeUnit.NANOSECONDS)).as("child ended after SIGINT").isTrue();
    }

    /**
     * @param countersFile a process's live counters file
     * @param type the counter of its first transfer to read
     * @return its value; 0 before the file or the transfer is there
     */
    static long transferCounter(Path countersFile, CounterType type) {
        try {
            return CountersFileReader.read(countersFile).flatMap(pc -> pc.groups().stream()
                    .filter(g -> g.kind() == CounterGroup.Kind.TRANSFER).findFirst())
                    .map(g -> g.value(type).orElse(0)).orElse(0L);
        } catch (IOException e) {
            return 0; // not there yet, or removed between listing and reading
        }
    }

    /**
     * @param p a running process
     * @param field a field of its {@code /proc/PID/io}, such as {@code wchar} (bytes handed to
     *     write and send calls, sockets included) or {@code syscw} (those calls)
     * @return its value; 0 once the process is gone
     */
    static long procIo(Process p, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(p.pid()), "io"))) {
                if (line.startsWith(field + ":")) {
                    return Long.parseLong(line.substring(field.length() + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // the process ended
        }
        return 0;
    }

    @Override
    public void close() throws InterruptedException {
        for (Process p : children) {
            p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
