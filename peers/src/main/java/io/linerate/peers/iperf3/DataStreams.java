package io.linerate.peers.iperf3;

import java.util.List;

/**
 * A test's data streams, started and ended together, for linerate's iperf3 client and server alike.
 *
 * <p>They start in iperf3's order, receivers first: an iperf3 sender starts at
 * TEST_RUNNING, so each receiving stream here reads its socket before TEST_RUNNING is sent (as a
 * server) or read (as a client). Otherwise, on a loaded host, what the peer sends first can
 * overflow a socket buffer whose thread has not started yet, and that loss would be linerate's own.
 * Sending streams start only at TEST_RUNNING, as iperf3's do.
 */
final class DataStreams {
    private DataStreams() {}

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

    /**
     * Closes every stream, then waits for each one's thread, at most {@code joinMillis} each; a
     * stream that never started is passed over.
     */
    static void closeAll(List<DataStream> streams, long joinMillis) {
        streams.forEach(DataStream::close);
        for (DataStream s : streams) {
            try {
                if (!s.finished()) {
                    s.join(joinMillis);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException ignored) {
                // never started: no thread to wait for
            }
        }
    }
}
