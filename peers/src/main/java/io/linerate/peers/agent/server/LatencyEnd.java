package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.peers.agent.internal.wire.Control;
import java.io.IOException;

/** How the agent's ping-pong and request/response ends finish: wait for the client's {@code done}, then report. */
final class LatencyEnd {
    private LatencyEnd() {}

    /**
     * Waits for the client's {@code done} under the control connection's timeout.
     *
     * @return {@link AgentSession#STOPPING} when the agent stopped the session meanwhile, else null
     * @throws IOException when the client went away or sent something else, and the agent did not stop
     */
    static String awaitDone(Control c, AgentSession session, long waitMillis) throws IOException {
        c.timeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, waitMillis)));
        try {
            c.expect("done");
            return null;
        } catch (IOException e) {
            if (!session.aborted()) {
                throw e;
            }
            return AgentSession.STOPPING;
        }
    }

    /**
     * Sends the end's {@code result}, with the failure of its server thread and the stop reason
     * when there are any.
     */
    static void sendResult(Control c, ObjectNode result, Throwable failure, String stopped) throws IOException {
        if (failure != null) {
            result.put("failure", String.valueOf(failure.getMessage()));
        }
        if (stopped != null) {
            result.put("stopped", stopped);
        }
        c.send(result);
    }
}
