package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Failures;
import io.linerate.core.TransferException;
import java.io.IOException;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * What the agent's word at the end of a stream says, as a client reads it: each stream's counters
 * in its {@code result}, its window datagram count for a UDP receiver here, or why it ended the
 * stream early ({@code stopped}, {@code error}, or its control connection gone or silent).
 */
final class AgentWord {
    private AgentWord() {}

    /** @return stream i's counters in the agent's result: {@code ends[i]}, or {@code end} from an agent of one stream */
    static JsonNode farEnd(JsonNode result, int i, int n) throws IOException {
        JsonNode ends = result.path("ends");
        JsonNode e = ends.isArray() ? ends.get(i) : i == 0 ? result.get("end") : null;
        if (ends.isArray() && ends.size() != n) {
            throw new IOException("the agent's result holds " + ends.size() + " streams' counters, not " + n);
        }
        if (e == null || !e.isObject()) {
            throw new IOException("the agent's result holds no counters for stream " + i);
        }
        return e;
    }

    /**
     * @return why the run ended when the agent's control message (or its absence) says so: it stopped
     *     (with both ends' counts), it reported an error, or it went away (its control connection
     *     closed or was reset); empty when its {@code result} arrived or nothing is known yet
     */
    static Optional<TransferException> ended(ControlWatch watch, Object agent, long localBytes, TransferException cause) {
        if (!watch.over()) {
            return Optional.empty();
        }
        String at = "stream with the agent at " + agent;
        IOException failure = watch.failure();
        if (failure instanceof ControlWatch.SilentPath) {
            return Optional.of(new TransferException(at + " failed: " + failure.getMessage() + "; ended after "
                    + localBytes + " bytes at this host", failure));
        }
        if (failure != null) {
            return Optional.of(new TransferException(at + " failed: the agent went away mid-stream (" + Failures.describe(failure)
                    + ") after " + localBytes + " bytes at this host", failure));
        }
        JsonNode m = watch.message();
        String type = m.get("type").asText();
        switch (type) {
            case "result":
                return Optional.empty();
            case "stopped":
                return Optional.of(new AgentStoppedException(at + " ended early", m.path("reason").asText("no reason given"),
                        localBytes, m.path("bytes").asLong(-1), m.path("messages").asLong(-1), cause));
            case "error", "refused":
                return Optional.of(new TransferException(at + " failed: the agent reported: "
                        + m.path("reason").asText("no reason given"), cause));
            default:
                return Optional.of(new TransferException(at + ": expected a \"result\" control message, got \""
                        + type + "\"", cause));
        }
    }

    /**
     * A UDP receiver here learns the agent's window datagram count of stream {@code i} from its result,
     * which it sends when its senders end; -1 before.
     */
    static LongSupplier peerSent(ControlWatch watch, int i) {
        return () -> {
            JsonNode m = watch.resultNow();
            if (m == null) {
                return -1;
            }
            JsonNode e = m.path("ends").isArray() ? m.get("ends").path(i) : i == 0 ? m.path("end") : m.path("none");
            return e.path("window_messages").asLong(-1);
        };
    }
}
