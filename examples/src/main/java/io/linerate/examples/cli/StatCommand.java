package io.linerate.examples.cli;

import io.linerate.core.Units;
import io.linerate.core.live.CountersFileReader;
import io.linerate.core.live.CountersLayout;
import io.linerate.core.live.LiveCounters;
import io.linerate.core.live.ProcessCounters;
import io.linerate.core.live.StaleCounterFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code linerate stat}: prints the live counters of every running linerate process, from their
 * counters files, read-only; the measuring processes cannot tell. Removes stale files on the way.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = {"Prints the live counters of every running linerate process (bytes, messages, loss and the last "
                + "interval's rate of each transfer, and the progress of suites) about once an interval, read from "
                + "their counters files without touching them.",
                "Without --count it prints until no process is left (at once, if none runs); with --count N it prints "
                + "exactly N reports, waiting for processes to appear. Stale files of dead processes are removed, "
                + "each with a line on stderr.",
                "Exit codes: 0 done, 1 the directory cannot be read, 2 bad usage."})
final class StatCommand implements Callable<Integer> {
    static final Duration MIN_INTERVAL = Duration.ofMillis(100);
    static final Duration MAX_INTERVAL = Duration.ofHours(1);

    @Spec
    CommandSpec command;

    @Mixin
    CountersOptions counters;

    @Option(names = "--interval", defaultValue = "1s", converter = Converters.DurationConverter.class,
            description = "Time between reports, 100ms to 1h (default: ${DEFAULT-VALUE}).")
    Duration interval;

    @Option(names = "--count", paramLabel = "N", description = "Print N reports, then stop (at least 1).")
    Integer count;

    @Override
    public Integer call() throws IOException {
        if (interval.compareTo(MIN_INTERVAL) < 0 || interval.compareTo(MAX_INTERVAL) > 0) {
            throw new IllegalArgumentException("--interval " + Units.text(interval) + " is out of range; allowed: 100ms to 1h");
        }
        if (count != null && count < 1) {
            throw new IllegalArgumentException("--count " + count + " is out of range; allowed: 1 or more");
        }
        Optional<String> cause = LiveCounters.unavailabilityCause();
        if (cause.isPresent()) {
            command.commandLine().getErr().println("linerate: stat: " + cause.get());
            return Linerate.FAILED;
        }
        Path dir = counters.directory != null ? counters.directory : LiveCounters.process().directory();
        PrintWriter out = command.commandLine().getOut();
        PrintWriter err = command.commandLine().getErr();
        // the default directory is made by the first transfer, so its absence means none ran; a
        // directory the user named must be one
        if (Files.exists(dir) ? !Files.isDirectory(dir) : counters.directory != null) {
            err.println("linerate: stat: the counters directory " + dir + (Files.exists(dir) ? " is not a directory" : " does not exist"));
            return Linerate.FAILED;
        }
        try {
            return report(dir, out, err);
        } catch (IOException e) {
            throw new IOException("stat: cannot read the counters directory " + dir + ": " + e, e);
        }
    }

    private int report(Path dir, PrintWriter out, PrintWriter err) throws IOException {
        long next = System.nanoTime();
        for (int report = 1; ; report++) {
            for (StaleCounterFiles.Removed r : StaleCounterFiles.sweep(dir, LiveCounters.process().file().orElse(null))) {
                err.println("linerate: removed stale counters file " + r.file() + ": " + r.reason());
            }
            List<ProcessCounters> running = read(dir);
            long now = System.currentTimeMillis();
            if (running.isEmpty()) {
                out.println("# " + Instant.ofEpochMilli(now) + " no running linerate process in " + dir);
            } else {
                out.println(String.format(Locale.ROOT, "# %s %d process%s in %s", Instant.ofEpochMilli(now),
                        running.size(), running.size() == 1 ? "" : "es", dir));
                out.println(LiveFormat.HEADER);
                LiveFormat.rows(running, now).forEach(out::println);
            }
            out.flush();
            err.flush();
            if (count != null ? report >= count : running.isEmpty()) {
                return Linerate.OK;
            }
            next += interval.toNanos();
            for (long wait; (wait = next - System.nanoTime()) > 0; ) {
                LockSupport.parkNanos(wait);
                if (Thread.interrupted()) {
                    return Linerate.OK;
                }
            }
        }
    }

    /** @return every readable counters file of the directory, by pid */
    private static List<ProcessCounters> read(Path dir) throws IOException {
        List<ProcessCounters> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        List<Path> files = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, CountersLayout.PREFIX + "*" + CountersLayout.SUFFIX)) {
            ds.forEach(files::add);
        }
        files.sort((a, b) -> Long.compare(CountersLayout.pidOf(a.getFileName().toString()),
                CountersLayout.pidOf(b.getFileName().toString())));
        for (Path f : files) {
            if (CountersLayout.pidOf(f.getFileName().toString()) >= 0) {
                CountersFileReader.read(f).ifPresent(out::add);
            }
        }
        return out;
    }
}
