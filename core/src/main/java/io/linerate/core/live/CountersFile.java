package io.linerate.core.live;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.agrona.concurrent.status.ConcurrentCountersManager;
import org.agrona.concurrent.status.CountersManager;

/**
 * The owner's side of one counters file: the mapping, its header and the Agrona counters manager
 * over it. The file is written under a temporary name and renamed into place once its header is
 * complete, so a reader never sees half a header.
 */
final class CountersFile implements AutoCloseable {
    /** How long a freed counter's slot stays unused, so that a reader never sees a slot change owner mid-read. */
    static final long FREE_TO_REUSE_MILLIS = 1_000;

    private final Path file;
    private final MappedByteBuffer map;
    private final UnsafeBuffer header;
    private final CountersManager manager;

    private CountersFile(Path file, MappedByteBuffer map) {
        this.file = file;
        this.map = map;
        UnsafeBuffer all = new UnsafeBuffer(map);
        this.header = new UnsafeBuffer(all, 0, CountersLayout.HEADER_LENGTH);
        this.manager = new ConcurrentCountersManager(
                new UnsafeBuffer(all, CountersLayout.HEADER_LENGTH, CountersLayout.METADATA_LENGTH),
                new UnsafeBuffer(all, CountersLayout.HEADER_LENGTH + CountersLayout.METADATA_LENGTH,
                        CountersLayout.VALUES_LENGTH),
                StandardCharsets.US_ASCII, SystemEpochClock.INSTANCE, FREE_TO_REUSE_MILLIS);
    }

    /**
     * Creates {@code linerate-<pid>.counters} in {@code dir} (made with mode 0700 if missing).
     *
     * @param dir the counters directory
     * @param pid this process's pid
     * @param processStartMillis this process's start time, ms since the epoch, -1 unknown
     * @throws IOException if the directory or the file cannot be made
     */
    static CountersFile create(Path dir, long pid, long processStartMillis) throws IOException {
        if (!Files.isDirectory(dir)) {
            try {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } catch (UnsupportedOperationException e) {
                Files.createDirectories(dir);
            } catch (FileAlreadyExistsException e) {
                // made by another process in between
            }
        }
        Path tmp = dir.resolve("." + CountersLayout.fileName(pid) + ".tmp");
        Path file = dir.resolve(CountersLayout.fileName(pid));
        Files.deleteIfExists(tmp); // only a dead process with this pid can have left it
        MappedByteBuffer map;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            map = ch.map(FileChannel.MapMode.READ_WRITE, 0, CountersLayout.FILE_LENGTH);
        }
        try {
            UnsafeBuffer h = new UnsafeBuffer(map, 0, CountersLayout.HEADER_LENGTH);
            long now = System.currentTimeMillis();
            h.putBytes(0, CountersLayout.MAGIC);
            h.putInt(CountersLayout.METADATA_LENGTH_OFFSET, CountersLayout.METADATA_LENGTH);
            h.putInt(CountersLayout.VALUES_LENGTH_OFFSET, CountersLayout.VALUES_LENGTH);
            h.putLong(CountersLayout.PID_OFFSET, pid);
            h.putLong(CountersLayout.PROCESS_START_OFFSET, processStartMillis);
            h.putLong(CountersLayout.CREATED_OFFSET, now);
            h.putLong(CountersLayout.HEARTBEAT_OFFSET, now);
            h.putIntRelease(CountersLayout.VERSION_OFFSET, CountersLayout.VERSION);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException e) {
            IoUtil.unmap(map);
            Files.deleteIfExists(tmp);
            throw e;
        }
        return new CountersFile(file, map);
    }

    Path path() {
        return file;
    }

    /** The header, for heartbeats; see {@link CountersLayout#HEARTBEAT_OFFSET}. */
    AtomicBuffer header() {
        return header;
    }

    /**
     * Allocates one counter of a group.
     *
     * @throws IllegalStateException when the file has no free slot
     */
    AtomicCounter allocate(CounterType type, long groupId, long groupStartMillis, CounterGroup.Kind kind, String label) {
        String l = label.length() > org.agrona.concurrent.status.CountersReader.MAX_LABEL_LENGTH
                ? label.substring(0, org.agrona.concurrent.status.CountersReader.MAX_LABEL_LENGTH) : label;
        int id = manager.allocate(l, type.id(), key -> {
            key.putLong(CountersLayout.KEY_GROUP_ID_OFFSET, groupId);
            key.putLong(CountersLayout.KEY_GROUP_START_OFFSET, groupStartMillis);
            key.putInt(CountersLayout.KEY_GROUP_KIND_OFFSET, kind.ordinal());
        });
        return new AtomicCounter(manager.valuesBuffer(), id, manager);
    }

    /** Removes the file, then unmaps it; only once no counter of it is written any more. */
    @Override
    public void close() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot remove counters file " + file, e);
        } finally {
            IoUtil.unmap(map);
        }
    }
}
