package io.linerate.peers.agent.server;

import io.linerate.core.Failures;
import io.linerate.peers.server.ServedCounts;
import io.linerate.peers.server.ServedStart;
import io.linerate.peers.server.ServedSummary;
import io.linerate.peers.server.ServedTestListener;
import java.net.InetSocketAddress;
import java.util.Map;

/**
 * What the agent reports of one ping-pong or request/response session to its
 * {@link ServedTestListener}: its start, once the agent's end serves, and at its end the end's own
 * counts (the ones it sends the client) with how it ended. Called on the session's thread only,
 * never from the end's per-message loop.
 */
final class LatencyServed {
    private final ServedTestListener listener;
    private final long test;
    private final long t0;

    private LatencyServed(ServedTestListener listener, long test) {
        this.listener = listener;
        this.test = test;
        this.t0 = System.nanoTime();
    }

    /**
     * Reports the session's start.
     *
     * @param what the test, for people, e.g. {@code linerate tcp ping-pong, up to 64 bytes}
     */
    static LatencyServed started(AgentSession session, String what) {
        LatencyServed s = new LatencyServed(session.listener(), session.order());
        s.listener.onStart(new ServedStart(s.test, (InetSocketAddress) session.socket().getRemoteSocketAddress(), what));
        return s;
    }

    /**
     * Reports the end's counts once the client said done or the agent stopped the session.
     *
     * @param failure the end's failure, or null
     * @param stopped why the agent stopped the session ({@link LatencyEnd#awaitDone}), or null
     */
    void ended(Map<String, Long> counts, Throwable failure, String stopped) {
        String end = stopped != null ? stopped
                : failure != null ? "the agent's end failed: " + Failures.describe(failure) : ServedSummary.DONE;
        report(counts, end);
    }

    /** Reports the end's counts when the wait for the client's done failed. */
    void lost(Map<String, Long> counts, Exception e) {
        report(counts, "the control connection failed before the client said done: " + Failures.describe(e));
    }

    private void report(Map<String, Long> counts, String end) {
        listener.onCounts(new ServedCounts(test, System.nanoTime() - t0, counts, end));
    }
}
