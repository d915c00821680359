package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;

/**
 * Keeps an agent's stream {@code result} message within the control connection's limit, which an
 * agent's and a client's of any release share ({@link Control#MAX_MESSAGE_BYTES}): where the ends'
 * {@code tcp_info} objects would pass it (some 200 bytes each, so with more than about 100 parallel
 * TCP streams), they are left out from the last stream backwards until the message fits, and the
 * message says why in {@value #LEFT_OUT}. A client then reports those streams' far-sender figures
 * as unavailable, with that reason, instead of failing the run.
 */
public final class TcpInfoFit {
    /** The result message's field saying why some ends' {@code tcp_info} was left out. */
    public static final String LEFT_OUT = "tcp_info_left_out";
    private static final String FIELD = "tcp_info";

    private TcpInfoFit() {}

    /**
     * @param result the {@code result} message, its {@code ends} array holding every end's object
     *     (the first also as {@code end})
     * @param limitBytes the most bytes the serialized message may take
     * @return how many ends' {@code tcp_info} were left out
     * @throws IOException when the message cannot be serialized
     */
    public static int fit(ObjectNode result, int limitBytes) throws IOException {
        long size = size(result);
        if (size <= limitBytes) {
            return 0;
        }
        String why = "the agent's result message would pass the control connection's limit of " + limitBytes + " bytes";
        result.put(LEFT_OUT, why);
        size = size(result);
        ArrayNode ends = (ArrayNode) result.get("ends");
        int leftOut = 0;
        for (int i = ends.size() - 1; i >= 0 && size > limitBytes; i--) {
            ObjectNode end = (ObjectNode) ends.get(i);
            if (end.remove(FIELD) != null) {
                size = size(result); // measured, not estimated: at most once per stream, once per session
                leftOut++;
            }
        }
        if (leftOut == 0) {
            result.remove(LEFT_OUT);
        }
        return leftOut;
    }

    /**
     * @param result the agent's {@code result} message
     * @return why it left some ends' {@code tcp_info} out; null where it left none out
     */
    public static String leftOut(JsonNode result) {
        JsonNode n = result.path(LEFT_OUT);
        return n.isTextual() ? n.asText() : null;
    }

    private static long size(JsonNode n) throws IOException {
        return Control.MAPPER.writeValueAsBytes(n).length;
    }
}
