package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.TcpMss;
import io.linerate.core.TcpStats;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.engine.EndCounters;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
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

    /**
     * Adds a sending end's {@code TCP_INFO} figures as {@code tcp_info}: {@code retransmits_window},
     * {@code tcpi_total_retrans}, {@code cwnd_bytes}, {@code tcpi_rtt} and {@code tcpi_rttvar} (µs),
     * {@code tcpi_pacing_rate} and {@code tcpi_delivery_rate} (bytes/s), {@code tcpi_snd_mss} and
     * {@code tcpi_rcv_mss} (bytes); -1 where the kernel gave none. An older client reads no such field.
     *
     * @param end an object {@link #write} made
     * @param t the figures
     */
    public static void tcp(ObjectNode end, TcpStats t) {
        ObjectNode n = end.putObject("tcp_info");
        n.put("retransmits_window", t.windowRetransmits());
        n.put("tcpi_total_retrans", t.totalRetransmits());
        n.put("cwnd_bytes", t.cwndBytes());
        n.put("tcpi_rtt", t.rttMicros());
        n.put("tcpi_rttvar", t.rttVarMicros());
        n.put("tcpi_pacing_rate", t.pacingRate());
        n.put("tcpi_delivery_rate", t.deliveryRate());
        n.put("tcpi_snd_mss", t.senderMss());
        n.put("tcpi_rcv_mss", t.receiverMss());
    }

    /**
     * @param end an end's object from the peer
     * @return its {@code TCP_INFO} figures ({@link #tcp(ObjectNode, TcpStats)}); empty where it sent
     *     none (a receiving end, a transport that cannot read them, an agent of an earlier release)
     * @throws IOException when the object is there but a figure is missing or out of range
     */
    public static Optional<TcpStats> tcp(JsonNode end) throws IOException {
        JsonNode n = end.get("tcp_info");
        if (n == null || !n.isObject()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new TcpStats(num(n, "retransmits_window"), num(n, "tcpi_total_retrans"), num(n, "cwnd_bytes"),
                    num(n, "tcpi_rtt"), num(n, "tcpi_rttvar"), num(n, "tcpi_pacing_rate"), num(n, "tcpi_delivery_rate"),
                    num(n, "tcpi_snd_mss"), num(n, "tcpi_rcv_mss")));
        } catch (IllegalArgumentException e) {
            throw new IOException("the peer's tcp_info is out of range: " + e.getMessage(), e);
        }
    }

    /**
     * Adds a ping-pong echo end's or a request/response server's {@code TCP_INFO} to its
     * {@code result} message: {@code tcp_info} as {@link #tcp(ObjectNode, TcpStats)} writes it where
     * it was read, else {@code tcp_info_unavailable} saying why. An older client reads neither.
     *
     * @param result the end's {@code result} message
     * @param end the end's figures, or why there are none
     */
    public static void latencyTcp(ObjectNode result, LatencyTcpInfo.End end) {
        end.stats().ifPresentOrElse(t -> tcp(result, t), () -> result.put("tcp_info_unavailable", end.unavailable()));
    }

    /**
     * @param result a ping-pong or request/response {@code result} message from the agent
     * @param source what the figures are, for the result ({@link LatencyTcpInfo.End#source()})
     * @return the agent's end's figures ({@link #latencyTcp}), or why it sent none; an agent of an
     *     earlier release sends neither field, and the reason then says so
     * @throws IOException when {@code tcp_info} is there but a figure is missing or out of range
     */
    public static LatencyTcpInfo.End latencyTcp(JsonNode result, String source) throws IOException {
        Optional<TcpStats> t = tcp(result);
        if (t.isPresent()) {
            return LatencyTcpInfo.End.read(source, t.get());
        }
        JsonNode why = result.get("tcp_info_unavailable");
        return LatencyTcpInfo.End.unavailable(source, why != null && why.isTextual() ? "the agent: " + why.asText()
                : OLDER_AGENT);
    }

    /**
     * Adds an end's system calls as {@code data_path}: {@code [call, calls, segments,
     * max_segments_per_call]} (an array, so that 128 ends stay within a control message). An older
     * client reads no such field.
     *
     * @param end an object {@link #write} made
     * @param e the end's calls
     */
    public static void dataPath(ObjectNode end, DataPath.End e) {
        end.putArray("data_path").add(e.call()).add(e.calls()).add(e.segments()).add(e.maxSegmentsPerCall());
    }

    /**
     * @param end an end's object from the peer
     * @return its calls ({@link #dataPath(ObjectNode, DataPath.End)}); empty where it sent none (a
     *     transport that reports no path, an agent of an earlier release)
     * @throws IOException when the field is there but malformed or out of range
     */
    public static Optional<DataPath.End> dataPath(JsonNode end) throws IOException {
        JsonNode a = end.get("data_path");
        if (a == null) {
            return Optional.empty();
        }
        if (!a.isArray() || a.size() != 4 || !a.get(0).isTextual() || !a.get(1).canConvertToLong()
                || !a.get(2).canConvertToLong() || !a.get(3).canConvertToLong()) {
            throw new IOException("the peer's data_path is not [call, calls, segments, max_segments_per_call]: " + a);
        }
        try {
            return Optional.of(new DataPath.End(a.get(0).asText(), a.get(1).asLong(), a.get(2).asLong(), a.get(3).asLong()));
        } catch (IllegalArgumentException e) {
            throw new IOException("the peer's data_path is out of range: " + e.getMessage(), e);
        }
    }

    /**
     * Adds a receiving end's socket drops as {@code socket_drops}: the datagrams its UDP socket
     * itself dropped over the whole stream ({@link io.linerate.core.spi.ends.StreamChannel#socketDrops()}),
     * only when known. An older client reads no such field.
     *
     * @param end an object {@link #write} made
     * @param drops the count, -1 when unknown (then nothing is added)
     */
    public static void socketDrops(ObjectNode end, long drops) {
        if (drops >= 0) {
            end.put("socket_drops", drops);
        }
    }

    /**
     * @param end an end's object from the peer
     * @return its socket's drops ({@link #socketDrops(ObjectNode, long)}); -1 where it sent none (a
     *     sending end, TCP, a transport or system that cannot read them, an agent of an earlier release)
     * @throws IOException when the field is there but not a count of 0 or more
     */
    public static long socketDrops(JsonNode end) throws IOException {
        JsonNode v = end.get("socket_drops");
        if (v == null) {
            return -1;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || v.asLong() < 0) {
            throw new IOException("the peer's socket_drops is not a count of 0 or more: " + v);
        }
        return v.asLong();
    }

    /** Why the agent's end has no {@code TCP_INFO} when its result carries neither field. */
    public static final String OLDER_AGENT = "the agent sent no tcp_info (an agent of an earlier release)";

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
