package io.linerate.peers.server;

/**
 * Receives what a {@link PeerServer} reports of each test it serves, as {@code iperf3 -s} prints it:
 * the test's start, an interval line per reporting interval and direction, and a summary per
 * direction at its end; a test without a data stream to count by intervals (linerate's ping-pong
 * and request/response) reports its start and, at its end, its counts ({@link #onCounts}). Called from the server's own threads (a test's session or measuring
 * thread, never its per-packet loop), several tests at once: an implementation is thread-safe and
 * returns quickly.
 */
public interface ServedTestListener {
    /** A listener that ignores everything. */
    ServedTestListener NONE = new ServedTestListener() { };

    /** @param start a test that was admitted and is about to run */
    default void onStart(ServedStart start) {
    }

    /** @param interval one reporting interval of one test and direction */
    default void onInterval(ServedInterval interval) {
    }

    /** @param summary the whole test in one direction, once it ended */
    default void onEnd(ServedSummary summary) {
    }

    /**
     * Reported instead of {@link #onEnd} by a test without a data stream: linerate's ping-pong and
     * request/response, whose server counts answers, not a stream's bytes. The iperf servers never
     * call it.
     *
     * @param counts the server's own counts of the whole test, once it ended
     */
    default void onCounts(ServedCounts counts) {
    }
}
