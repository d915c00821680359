package io.linerate.core.live;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Finds and removes counters files whose process is gone: left by a process killed with SIGKILL
 * (no shutdown hook runs then), or by a crash of the JVM.
 *
 * <p>The rule: a file {@code linerate-<pid>.counters} (or its temporary {@code .linerate-<pid>.counters.tmp})
 * is stale when no process with that pid is alive, or when the process with that pid started more
 * than {@value #START_TOLERANCE_MILLIS} ms away from the start time in the file's header (the pid
 * was reused), or when the pid is this process's own and the file is not the one this process has
 * open. A file of a live process whose header cannot be read yet is left alone.
 */
public final class StaleCounterFiles {
    /**
     * Start times that differ by less than this are the same process. Linux derives a process's
     * start time from the boot time, which moves when the wall clock is stepped, so two readings
     * of one process's start can differ by a little.
     */
    public static final long START_TOLERANCE_MILLIS = 2_000;

    private static final String TMP_PREFIX = ".";
    private static final String TMP_SUFFIX = ".tmp";

    /**
     * A file that was removed, and why.
     *
     * @param file the removed file
     * @param pid the pid in its name
     * @param reason why it was stale, such as {@code process 1234 is not running}
     */
    public record Removed(Path file, long pid, String reason) {}

    private StaleCounterFiles() {}

    /**
     * Removes the stale counters files of a directory.
     *
     * @param dir the counters directory; a missing directory has no stale files
     * @param ownFile the file this process has open, never removed; null when none
     * @return the files removed, with reasons
     * @throws IOException if the directory cannot be listed or a stale file cannot be removed
     */
    public static List<Removed> sweep(Path dir, Path ownFile) throws IOException {
        List<Removed> removed = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return removed;
        }
        long self = ProcessHandle.current().pid();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                boolean tmp = name.startsWith(TMP_PREFIX) && name.endsWith(TMP_SUFFIX);
                long pid = CountersLayout.pidOf(tmp ? name.substring(1, name.length() - TMP_SUFFIX.length()) : name);
                if (pid < 0 || f.equals(ownFile)) {
                    continue;
                }
                Optional<String> why = pid == self
                        ? (tmp ? Optional.empty() : Optional.of("left by an earlier process with this process's pid " + pid))
                        : staleReason(pid, tmp ? OptionalLong.empty() : headerStart(f));
                if (why.isPresent() && Files.deleteIfExists(f)) {
                    removed.add(new Removed(f, pid, why.get()));
                }
            }
        }
        return removed;
    }

    /**
     * @param pid the pid a file names
     * @param fileStartMillis the process start time its header holds, empty when unreadable
     * @return why the file is stale, or empty when its process may still be running
     */
    static Optional<String> staleReason(long pid, OptionalLong fileStartMillis) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return Optional.of("process " + pid + " is not running");
        }
        Optional<Instant> start = p.get().info().startInstant();
        if (fileStartMillis.isPresent() && fileStartMillis.getAsLong() >= 0 && start.isPresent()
                && Math.abs(start.get().toEpochMilli() - fileStartMillis.getAsLong()) > START_TOLERANCE_MILLIS) {
            return Optional.of("pid " + pid + " now belongs to a process started at " + start.get()
                    + ", not to the one that wrote the file (started at "
                    + Instant.ofEpochMilli(fileStartMillis.getAsLong()) + ")");
        }
        return Optional.empty();
    }

    /** @return the process start time of a ready header, empty when the file cannot be read as one */
    static OptionalLong headerStart(Path file) {
        ByteBuffer header = ByteBuffer.allocate(CountersLayout.HEADER_LENGTH).order(ByteOrder.nativeOrder());
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            while (header.hasRemaining() && ch.read(header, header.position()) > 0) {
                // read the whole header
            }
            if (header.hasRemaining() || !CountersFileReader.validHeader(header, size)) {
                return OptionalLong.empty();
            }
            return OptionalLong.of(header.getLong(CountersLayout.PROCESS_START_OFFSET));
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            return OptionalLong.empty();
        }
    }
}
