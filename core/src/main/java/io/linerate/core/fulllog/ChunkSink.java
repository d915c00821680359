package io.linerate.core.fulllog;

import java.io.IOException;

/** Where the writer thread puts the entries; the CSV file, or a stand-in in tests. */
interface ChunkSink {
    /**
     * Writes {@code count} entries of {@link FullLog#COLUMNS} longs each, in order.
     *
     * @throws IOException when they cannot be written
     */
    void write(long[] entries, int count) throws IOException;

    /** Releases the sink; may be called more than once and from another thread. */
    void close() throws IOException;
}
