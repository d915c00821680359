package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.TcpMss;
import io.linerate.core.spi.engine.EndCounters;
import java.io.IOException;
import java.util.List;
import java.util.OptionalDouble;

/** One end's counters and applied socket options on the control connection; intervals stay local. */
public final class EndJson {
    private EndJson() {}

    public static ObjectNode write(EndCounters c, AppliedOptions o) {
        ObjectNode n = Control.MAPPER.createObjectNode();
        n.put("sender", c.sender());
        n.put("bytes", c.bytes());
        n.put("messages", c.messages());
        n.put("window_start_ns", c.windowStartNanos());
        n.put("window_end_ns", c.windowEndNanos());
        n.put("window_bytes", c.windowBytes());
        n.put("window_messages", c.windowMessages());
        n.put("reordered", c.reordered());
        n.put("duplicates", c.duplicates());
        n.put("foreign", c.foreign());
        c.jitterNanos().ifPresent(j -> n.put("jitter_ns", j));
        n.put("cpu_ns", c.cpuNanos());
        if (c.interrupted()) {
            n.put("interrupted", true); // only when true: an older client reads no such field
        }
        n.put("tclass_applied", o.trafficClassApplied());
        n.put("sndbuf_applied", o.sendBufferApplied());
        n.put("rcvbuf_applied", o.receiveBufferApplied());
        n.put("nodelay_applied", o.noDelayApplied());
        // only where this end read its MSS from its socket (TCP_MAXSEG): an older client reads no such field
        o.tcpMss().flatMap(TcpMss::read).ifPresent(r -> n.put("mss_read", c.sender() ? r.senderBytes() : r.receiverBytes()));
        return n;
    }

    public static EndCounters counters(JsonNode n) throws IOException {
        JsonNode j = n.get("jitter_ns");
        return new EndCounters(bool(n, "sender"), num(n, "bytes"), num(n, "messages"), num(n, "window_start_ns"),
                num(n, "window_end_ns"), num(n, "window_bytes"), num(n, "window_messages"), num(n, "reordered"),
                num(n, "duplicates"), num(n, "foreign"),
                j != null && j.isNumber() ? OptionalDouble.of(j.asDouble()) : OptionalDouble.empty(),
                num(n, "cpu_ns"), List.of(), n.path("interrupted").asBoolean(false));
    }

    /**
     * @return the fields {@link #write} put: traffic class, SO_SNDBUF, SO_RCVBUF, TCP_NODELAY as
     *     applied (1 on), and the MSS the end read from its socket, bytes (0 where it read none)
     */
    public static int[] options(JsonNode n) throws IOException {
        return new int[] {(int) num(n, "tclass_applied"), (int) num(n, "sndbuf_applied"),
                (int) num(n, "rcvbuf_applied"), bool(n, "nodelay_applied") ? 1 : 0, Math.max(0, n.path("mss_read").asInt(0))};
    }

    private static long num(JsonNode n, String f) throws IOException {
        JsonNode v = n.get(f);
        if (v == null || !v.canConvertToLong()) {
            throw new IOException("the peer's counters lack \"" + f + "\"");
        }
        return v.asLong();
    }

    private static boolean bool(JsonNode n, String f) throws IOException {
        JsonNode v = n.get(f);
        if (v == null || !v.isBoolean()) {
            throw new IOException("the peer's counters lack \"" + f + "\"");
        }
        return v.asBoolean();
    }
}
