package io.linerate.core.fulllog;

/**
 * One preallocated record travelling between the hot thread and the writer: up to
 * {@code capacity} entries of {@link FullLog#COLUMNS} longs each, entry {@code i} at
 * {@code entries[i * COLUMNS]}. The hot thread owns it until it offers it to the writer, the
 * writer until it returns it; the queues order the hand-overs.
 */
final class Chunk {
    final long[] entries;
    final int capacity;
    int count;

    Chunk(int capacity) {
        this.capacity = capacity;
        this.entries = new long[capacity * FullLog.COLUMNS];
    }
}
