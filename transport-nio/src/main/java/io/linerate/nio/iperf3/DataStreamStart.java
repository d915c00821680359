package io.linerate.nio.iperf3;

import java.util.List;

/**
 * Starts a test's data streams in iperf3's order, receivers first: an iperf3 sender starts at
 * TEST_RUNNING, so each receiving stream here reads its socket before TEST_RUNNING is sent (as a
 * server) or read (as a client). Otherwise, on a loaded host, what the peer sends first can
 * overflow a socket buffer whose thread has not started yet, and that loss would be linerate's own.
 * Sending streams start only at TEST_RUNNING, as iperf3's do.
 */
final class DataStreamStart {
    private DataStreamStart() {}

    /**
     * Starts every receiving stream and waits until each reads, at most {@code timeoutNanos} in all.
     *
     * @param threadPrefix the threads' names, before the stream id
     */
    static void receivers(List<DataStream> streams, String threadPrefix, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        for (DataStream s : streams) {
            if (!s.sender()) {
                s.start(threadPrefix + s.id);
            }
        }
        try {
            for (DataStream s : streams) {
                if (!s.sender()) {
                    s.awaitRunning(Math.max(0, deadline - System.nanoTime()));
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Starts every sending stream.
     *
     * @param threadPrefix the threads' names, before the stream id
     */
    static void senders(List<DataStream> streams, String threadPrefix) {
        for (DataStream s : streams) {
            if (s.sender()) {
                s.start(threadPrefix + s.id);
            }
        }
    }
}
