package io.linerate.peers.agent.internal.wire;


import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Failures;
import io.linerate.core.TransferException;
import io.linerate.core.spi.engine.StreamEnd;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.List;

/**
 * The {@code go} of a stream between a client and the agent: the receiving side says it once its
 * receivers read their sockets, and the sending side sends only after it came. Without it, what
 * the sender sends first can overflow a socket buffer that no thread reads yet, on a loaded host or
 * in a JVM that has not run a stream before; that loss would be the tool's, not the path's.
 */
public final class AgentGo {
    private AgentGo() {}

    /**
     * Says {@code go} once every end has entered its loop, or the I/O timeout passed.
     *
     * @param ends the receiving ends, started
     * @param ioMillis the spec's I/O timeout, ms
     */
    public static void sayOnceReading(Control c, List<StreamEnd> ends, long ioMillis) {
        long deadline = System.nanoTime() + ioMillis * 1_000_000L;
        for (StreamEnd e : ends) {
            e.awaitRunning(Math.max(0, deadline - System.nanoTime()));
        }
        try {
            c.send(Control.message(Control.GO));
        } catch (IOException e) {
            // the peer is gone: whoever watches the control connection learns it and ends the ends
        }
    }

    /**
     * Waits for the peer's {@code go}, passing over its beats.
     *
     * @param peer who should say it, for messages: "the client", "the agent"
     * @param ioMillis the longest wait, ms (the spec's I/O timeout)
     * @throws IOException when it does not come within {@code ioMillis}, the peer says something
     *     else (an {@code error} or {@code stopped} with its reason), or the connection fails
     */
    public static void await(Control c, String peer, long ioMillis) throws IOException {
        long deadline = System.nanoTime() + ioMillis * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            if (left <= 0) {
                throw late(peer, ioMillis, null);
            }
            c.timeout((int) Math.min(Integer.MAX_VALUE, left));
            JsonNode m;
            try {
                m = c.receive();
            } catch (SocketTimeoutException e) {
                throw late(peer, ioMillis, e);
            }
            String type = m.path("type").asText();
            if (type.equals(Control.GO)) {
                return;
            }
            if (!type.equals(ControlBeats.TYPE)) {
                String reason = m.path("reason").asText("");
                throw new IOException("expected " + peer + "'s \"go\", got \"" + type + "\""
                        + (reason.isEmpty() ? "" : ": " + reason));
            }
        }
    }

    /**
     * As {@link #await}, for a client waiting for the agent's {@code go}.
     *
     * @param agent the agent's endpoint, for the message
     * @throws TransferException naming the agent and why, when its {@code go} does not come
     */
    public static void awaitAgent(Control c, Object agent, long ioMillis) throws TransferException {
        try {
            await(c, "the agent", ioMillis);
        } catch (IOException e) {
            throw new TransferException("stream with the agent at " + agent + ": " + Failures.describe(e), e);
        }
    }

    private static IOException late(String peer, long ioMillis, Throwable cause) {
        return new IOException(peer + " did not say go within the I/O timeout of " + ioMillis
                + " ms: its receivers did not start reading", cause);
    }
}
