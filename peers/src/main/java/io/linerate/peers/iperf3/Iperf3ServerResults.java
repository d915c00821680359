package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The server's counts of one iperf3 test, as iperf3's results object (its {@code send_results}:
 * per stream {@code id}, {@code bytes}, {@code retransmits}, {@code jitter} in s, {@code errors},
 * {@code packets}, {@code start_time}, {@code end_time}) and as the report an iperf3 client shows
 * under {@code --get-server-output}.
 *
 * <p>A receiving UDP stream's {@code packets} is what the client says it sent when that is known
 * (its results come first), and never less than the highest sequence number seen; {@code errors}
 * is {@code packets} minus the distinct datagrams received. So, unlike iperf3's own server,
 * datagrams lost at the end of the test are counted, and received + lost = sent holds exactly.
 *
 * <p>With iperf3's omit period ({@code -O N}) every count leaves out what came before it ended, as
 * iperf3's server resets its counters then.
 *
 * @param streams one entry per stream, in the test's order
 */
record Iperf3ServerResults(boolean udp, List<Stream> streams) {
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One stream's counts.
     *
     * @param bytes bytes sent (server sending) or received, UDP headers included as iperf3 counts them
     * @param packets datagrams sent, or for a receiver datagrams the client sent (see above); 0 for TCP
     * @param omittedPackets datagrams sent before the omit period ended, not in {@code packets}
     * @param lost datagrams that did not arrive; 0 for a sender or TCP
     * @param outOfOrder datagrams that arrived after a later one
     * @param duplicates datagrams that arrived more than once
     * @param jitterSeconds RFC 3550 interarrival jitter of a UDP receiver, s
     * @param seconds from the stream's first send or read to its last, s
     */
    record Stream(int id, boolean sender, long bytes, long packets, long omittedPackets, long lost, long outOfOrder,
                  long duplicates, double jitterSeconds, double seconds) {}

    static Iperf3ServerResults of(Iperf3TestParams params, List<DataStream> streams, JsonNode clientResults) {
        Map<Integer, Long> clientPackets = new HashMap<>();
        for (JsonNode s : clientResults.path("streams")) {
            if (s.path("id").canConvertToInt() && s.path("packets").canConvertToLong() && s.get("packets").asLong() >= 0) {
                clientPackets.put(s.get("id").asInt(), s.get("packets").asLong());
            }
        }
        List<Stream> out = new ArrayList<>();
        for (DataStream d : streams) {
            double secs = d.activeNanos() / 1e9;
            OmitBaseline o = d.omitted;
            long bytes = d.bytes - o.bytes;
            if (!params.udp()) {
                out.add(new Stream(d.id, d.sender(), bytes, 0, 0, 0, 0, 0, 0, secs));
            } else if (d.sender()) {
                out.add(new Stream(d.id, true, bytes, d.messages - o.messages, o.messages, 0, 0, 0, 0, secs));
            } else {
                long omitted = o.highest + 1;
                long theirs = clientPackets.getOrDefault(d.id, 0L);
                // iperf3's client counts the omitted datagrams too; one that did not would fall short of those seen
                if (omitted > 0 && theirs <= d.tracker.highest()) {
                    theirs += omitted;
                }
                long packets = Math.max(d.tracker.highest() + 1, theirs) - omitted;
                long distinct = d.tracker.distinct() - o.distinct;
                out.add(new Stream(d.id, false, bytes, packets, omitted, Math.max(0, packets - distinct),
                        d.tracker.reordered() - o.reordered, d.tracker.duplicates() - o.duplicates,
                        d.jitter.samples() > 0 ? d.jitter.nanos() / 1e9 : 0, secs));
            }
        }
        return new Iperf3ServerResults(params.udp(), List.copyOf(out));
    }

    /** @return iperf3's results object */
    ObjectNode toJson() {
        ObjectNode r = JSON.createObjectNode();
        r.put("cpu_util_total", 0.0);
        r.put("cpu_util_user", 0.0);
        r.put("cpu_util_system", 0.0);
        r.put("sender_has_retransmits", streams.stream().anyMatch(Stream::sender) ? 0 : -1);
        ArrayNode a = r.putArray("streams");
        for (Stream s : streams) {
            ObjectNode o = a.addObject();
            o.put("id", s.id());
            o.put("bytes", s.bytes());
            o.put("retransmits", -1);
            o.put("jitter", s.jitterSeconds());
            o.put("errors", s.lost());
            // iperf3's client subtracts its own count of omitted datagrams from this one
            o.put("packets", s.packets() + s.omittedPackets());
            o.put("start_time", 0.0);
            o.put("end_time", s.seconds());
        }
        return r;
    }

    /** @return the server's side as the client shows it under {@code --get-server-output} */
    ObjectNode report() {
        ObjectNode r = JSON.createObjectNode();
        r.put("server", "linerate");
        r.put("protocol", udp ? "udp" : "tcp");
        ArrayNode a = r.putArray("streams");
        long rxBytes = 0;
        long txBytes = 0;
        long packets = 0;
        long lost = 0;
        for (Stream s : streams) {
            ObjectNode o = a.addObject();
            o.put("id", s.id());
            o.put("role", s.sender() ? "sender" : "receiver");
            o.put("bytes", s.bytes());
            o.put("seconds", s.seconds());
            if (udp) {
                o.put("packets", s.packets());
                if (!s.sender()) {
                    o.put("lost_packets", s.lost());
                    o.put("out_of_order", s.outOfOrder());
                    o.put("duplicates", s.duplicates());
                    o.put("jitter_ms", s.jitterSeconds() * 1e3);
                }
            }
            if (s.sender()) {
                txBytes += s.bytes();
            } else {
                rxBytes += s.bytes();
                packets += s.packets();
                lost += s.lost();
            }
        }
        ObjectNode sum = r.putObject("sum");
        sum.put("bytes_received", rxBytes);
        sum.put("bytes_sent", txBytes);
        if (udp) {
            sum.put("packets", packets);
            sum.put("lost_packets", lost);
        }
        return r;
    }

    /** @return one line for the server's log */
    String summary() {
        long rx = 0;
        long tx = 0;
        long lost = 0;
        long packets = 0;
        for (Stream s : streams) {
            if (s.sender()) {
                tx += s.bytes();
            } else {
                rx += s.bytes();
                lost += s.lost();
                packets += s.packets();
            }
        }
        return String.format(Locale.ROOT, "%s, %d stream(s), received %d bytes, sent %d bytes%s", udp ? "UDP" : "TCP",
                streams.size(), rx, tx, udp && packets > 0 ? ", lost " + lost + " of " + packets + " datagrams" : "");
    }
}
