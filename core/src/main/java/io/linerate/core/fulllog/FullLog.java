package io.linerate.core.fulllog;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import org.jctools.queues.SpscArrayQueue;

/**
 * A full log of one measurement: one entry per datagram, frame or round trip, written to a CSV
 * file by a writer thread while a hot thread records.
 *
 * <p><b>File format</b> (version 1; ASCII, {@link Locale#ROOT}): the header line
 * {@value #HEADER}, then one line per entry, in the order recorded, of five decimal integers:
 * <ul>
 * <li>{@code seq}: the sequence number (a datagram's or frame's, from its header; a ping-pong's
 *     round trip counted from 0 over the whole run);
 * <li>{@code bytes}: the datagram's or frame's length as received, or the ping-pong message size;
 * <li>{@code phase}: 0 warm-up, 1 measured window, 2 after the window (for a stream, the phase the
 *     datagram was sent in, {@link io.linerate.core.DatagramHeader}'s field);
 * <li>{@code send_ns}, {@code recv_ns}: the send and receive time by the measurement's
 *     {@link io.linerate.core.Clock} in ns ({@link System#nanoTime()} by default: an arbitrary
 *     origin, so only differences mean something, and only between readings of one host).
 * </ul>
 * A stream logs every arrival of its own datagrams, reordered and duplicated ones included; a
 * ping-pong every completed round trip. Dropped entries are missing lines, counted in the
 * {@link FullLogSummary}.
 *
 * <p><b>Threads.</b> One thread, the producer, calls {@link #record} and then {@link #finish};
 * records are chunks of {@link #DEFAULT_CHUNK_ENTRIES} entries by default, preallocated, passed
 * to the writer through a JCTools {@link SpscArrayQueue} and returned through another, so
 * {@code record} allocates nothing, never blocks and does no I/O: with no empty record free it
 * drops the entry and counts it. {@link #close()} may be called from any thread; it stops the
 * writer once it has written what it was handed, waits for it within the close timeout, and
 * closes the file, on every path; {@link #closeAndSummarize()} does the same and says what was
 * written.
 */
public final class FullLog implements AutoCloseable {
    /** The file's first line: the column names. */
    public static final String HEADER = "seq,bytes,phase,send_ns,recv_ns";
    /** Longs per entry. */
    public static final int COLUMNS = 5;
    /** Entries in one record (chunk) by default. */
    public static final int DEFAULT_CHUNK_ENTRIES = 1024;
    /** Records by default: with {@link #DEFAULT_CHUNK_ENTRIES}, 65536 entries (2.5 MiB) in flight. */
    public static final int DEFAULT_CHUNKS = 64;
    /** Longest wait for a writer that was interrupted to end, ms. */
    private static final long INTERRUPTED_JOIN_MILLIS = 1000;

    private final String file;
    private final SpscArrayQueue<Chunk> filled;
    private final SpscArrayQueue<Chunk> free;
    private final FullLogWriter writer;
    private final Thread thread;
    private final long closeTimeoutNanos;
    // producer's own
    private Chunk current;
    private long recorded;
    // written by the producer in finish(), read by close()
    private volatile long recordedTotal = -1;
    private FullLogSummary summary;

    private FullLog(String file, ChunkSink sink, int chunkEntries, int chunks, long closeTimeoutNanos) {
        this.file = file;
        this.filled = new SpscArrayQueue<>(chunks);
        this.free = new SpscArrayQueue<>(chunks);
        for (int i = 0; i < chunks; i++) {
            free.offer(new Chunk(chunkEntries));
        }
        this.writer = new FullLogWriter(filled, free, sink);
        this.thread = new Thread(writer, "linerate-full-log");
        this.thread.setDaemon(true);
        this.closeTimeoutNanos = closeTimeoutNanos;
    }

    /**
     * Creates or truncates {@code file}, writes the header line and starts the writer thread, with
     * the default record sizes.
     *
     * @param file the path, used as given
     * @param closeTimeout how long {@link #close()} waits for the writer to finish
     * @throws IOException when the file cannot be created or written, with a message naming the
     *     file and the reason; nothing is left open
     */
    public static FullLog open(Path file, Duration closeTimeout) throws IOException {
        return open(file, closeTimeout, DEFAULT_CHUNK_ENTRIES, DEFAULT_CHUNKS);
    }

    /**
     * As {@link #open(Path, Duration)} with {@code chunks} records of {@code chunkEntries} entries.
     *
     * @throws IllegalArgumentException when a size is below 1 or the records would exceed 2^31
     *     longs in all, naming the value
     * @throws IOException when the file cannot be created or written, with a message naming the
     *     file and the reason; nothing is left open
     */
    public static FullLog open(Path file, Duration closeTimeout, int chunkEntries, int chunks) throws IOException {
        checkSizes(chunkEntries, chunks);
        CsvFile csv;
        try {
            csv = CsvFile.create(file, chunkEntries);
        } catch (NoSuchFileException e) {
            throw new IOException("cannot create the full log " + file + ": its directory does not exist", e);
        } catch (AccessDeniedException e) {
            throw new IOException("cannot create the full log " + file + ": permission denied", e);
        } catch (IOException e) {
            throw new IOException("cannot create the full log " + file + ": " + e.getMessage(), e);
        }
        return start(file.toString(), csv, chunkEntries, chunks, closeTimeout);
    }

    /** Starts a log writing to {@code sink}; for tests. */
    static FullLog start(String name, ChunkSink sink, int chunkEntries, int chunks, Duration closeTimeout) {
        checkSizes(chunkEntries, chunks);
        FullLog log = new FullLog(name, sink, chunkEntries, chunks, closeTimeout.toNanos());
        log.thread.start();
        return log;
    }

    private static void checkSizes(int chunkEntries, int chunks) {
        if (chunkEntries < 1 || chunks < 1 || (long) chunkEntries * COLUMNS > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(String.format(Locale.ROOT, "full log of %d records of %d entries is out "
                    + "of range; allowed: at least 1 record of 1..%d entries", chunks, chunkEntries,
                    Integer.MAX_VALUE / COLUMNS));
        }
    }

    /**
     * Records one entry (producer thread only). Allocation-free and non-blocking: when the writer
     * has not returned an empty record, the entry is dropped and counted.
     *
     * @param seq sequence number
     * @param bytes length, bytes
     * @param phase 0 warm-up, 1 window, 2 after it
     * @param sendNanos send time, ns
     * @param recvNanos receive time, ns
     */
    public void record(long seq, long bytes, int phase, long sendNanos, long recvNanos) {
        recorded++;
        Chunk c = current;
        if (c == null) {
            c = free.relaxedPoll();
            if (c == null) {
                return;
            }
            current = c;
        }
        int i = c.count * COLUMNS;
        long[] e = c.entries;
        e[i] = seq;
        e[i + 1] = bytes;
        e[i + 2] = phase;
        e[i + 3] = sendNanos;
        e[i + 4] = recvNanos;
        if (++c.count == c.capacity) {
            // never full: every record is either free, held here, queued or at the writer
            filled.offer(c);
            current = null;
        }
    }

    /**
     * Hands the last, partly filled record to the writer and publishes the count of entries
     * recorded (producer thread, or any thread once the producer has ended). Later calls do nothing.
     */
    public void finish() {
        if (recordedTotal >= 0) {
            return;
        }
        Chunk c = current;
        if (c != null && c.count > 0) {
            filled.offer(c);
        }
        current = null;
        recordedTotal = recorded;
    }

    /**
     * Stops the writer after it has written every record handed to it, waits for it (within the
     * close timeout; a writer still busy then is interrupted, which closes the file under it, and
     * waited for 1 s more), closes the file, and says what was written. Idempotent; any thread.
     *
     * @return what was written; without {@link #finish()} before, a failure says the producer did
     *     not finish, and only what the writer wrote is known
     */
    public synchronized FullLogSummary closeAndSummarize() {
        if (summary != null) {
            return summary;
        }
        writer.stop();
        String failure = null;
        try {
            thread.join(Math.max(1, closeTimeoutNanos / 1_000_000L));
            if (thread.isAlive()) {
                thread.interrupt();
                thread.join(INTERRUPTED_JOIN_MILLIS);
                failure = String.format(Locale.ROOT, "the writer did not finish within %d ms and was interrupted",
                        closeTimeoutNanos / 1_000_000L);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            failure = "interrupted while waiting for the writer";
        } finally {
            writer.closeSink();
        }
        if (failure == null && writer.failure() != null) {
            failure = "writing failed: " + writer.failure().getMessage();
        }
        long total = recordedTotal;
        long written = writer.written();
        if (total < 0) {
            failure = (failure == null ? "" : failure + "; ") + "the measuring thread did not finish its log, so the "
                    + "entries it recorded are not known";
            total = written;
        }
        summary = new FullLogSummary(file, written, Math.max(0, total - written), Optional.ofNullable(failure));
        return summary;
    }

    /** As {@link #closeAndSummarize()}, for try-with-resources. */
    @Override
    public void close() {
        closeAndSummarize();
    }
}
