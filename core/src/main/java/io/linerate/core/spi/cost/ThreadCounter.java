package io.linerate.core.spi.cost;

/**
 * One event counted on the thread that opened it, from the moment it was opened. Read and close it
 * on any thread; the count stays that of the opening thread.
 */
public interface ThreadCounter extends AutoCloseable {

    /** @return the event's count since the counter was opened (instructions, or ns for the task clock) */
    long read();

    /** Releases the counter. Never throws; safe to call twice. */
    @Override
    void close();
}
