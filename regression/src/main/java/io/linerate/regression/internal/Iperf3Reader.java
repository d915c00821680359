package io.linerate.regression.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Metric;
import io.linerate.core.StreamIo;
import io.linerate.core.StreamMetrics;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeMap;

/**
 * Reads iperf3's {@code -J} output (checked against iperf3 3.12), both sides' figures of each
 * direction, under the keys linerate's own iperf3 client writes for the same test
 * ({@link StreamMetrics}; docs/metrics.md, "One key per quantity"): test and marker protocol and
 * family ({@code tcp4}; the family from {@code start.connected[0].local_host}; {@code udp4_gso} where
 * {@code start.test_start.gso} is set, iperf3 3.21's {@code --gsro}), label
 * {@code direction}, and {@code host} by who counted: {@code local} this file's side,
 * {@code remote} the other side's figures reported back.
 *
 * <p>Which side is which: the file is the client's unless {@code start.accepted_connection} says
 * it is the server's. {@code start.test_start.reverse} is 0 when the client sends ({@code forward})
 * and 1 with {@code -R}, when the server sends ({@code reverse}); with {@code --bidir} the opposite
 * direction is in the {@code *_bidir_reverse} sums. Per direction:
 * <ul>
 * <li>the receiver's goodput {@code <marker>_mbps} (and for UDP {@code _lost_pct} and
 * {@code _jitter_ms}): when this side received (the interval sums of that direction have
 * {@code "sender": false}), one local sample per interval not flagged {@code omitted} (iperf3's
 * {@code -O} warm-up), at time {@code end}; when the client sent, one remote sample from the
 * receiver's summary iperf3 exchanges at the end, {@code end.sum_received} (iperf3 leaves the
 * warm-up out of it; not {@code end.sum}, which for a UDP client holds the sender's bytes); in the
 * server's file of a direction it sent, where iperf3 leaves {@code sum_received} at 0, none, with a
 * warning that says so;</li>
 * <li>the sender's rate {@code <marker>_sent_mbps}, one sample from {@code end.sum_sent}: local when
 * this side sent, remote in the client's file of a direction the server sent.</li>
 * </ul>
 * Without {@code sender} flags (iperf3 before 3.7), this side is taken to have sent when it is the
 * client of a forward direction or the server of a reverse one. A top-level {@code error} is an
 * error for the whole input.
 */
public final class Iperf3Reader implements MetricReader {
    /**
     * The keys this reader reads, at any depth: none may be given twice in one object with two
     * values. Others may (iperf3 3.12 repeats {@code sndbuf_actual} and its like with {@code -P}).
     */
    static final Set<String> READ_KEYS = Set.of("start", "test_start", "protocol", "reverse", "accepted_connection",
            "connected", "local_host", "error", "intervals", "end", "sum", "sum_sent", "sum_received",
            "sum_bidir_reverse", "sum_sent_bidir_reverse", "sum_received_bidir_reverse", "sender", "omitted",
            "bits_per_second", "lost_percent", "jitter_ms", "gso");

    @Override
    public String format() {
        return "iperf3";
    }

    @Override
    public boolean accepts(String content) {
        content = InputText.withoutBom(content);
        if (Json.firstChar(content) != '{') {
            return false;
        }
        JsonNode n = Json.parseWhole(content);
        return n != null && n.has("start") && (n.has("intervals") || n.has("error"));
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        content = InputText.withoutBom(content);
        JsonNode root;
        try {
            root = Json.readDistinct(content, READ_KEYS::contains);
        } catch (JsonProcessingException e) {
            out.error(new Problem(source, Json.lineOf(e), "", "", "iperf3 output cannot be read: " + Json.reason(e)));
            return;
        }
        JsonNode testStart = root.path("start").path("test_start");
        String protocol = testStart.path("protocol").asText("tcp").toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "_");
        // iperf3 3.21+ records --gsro as test_start.gso; -Z and --skip-rx-copy it does not record
        boolean gso = protocol.equals("udp") && testStart.path("gso").asInt(0) != 0;
        String marker = StreamMetrics.marker(protocol, ipv6(root)) + (gso ? StreamIo.GSO_MARKER : "");
        if (root.hasNonNull("error")) {
            out.error(new Problem(source, 0, StreamMetrics.goodput(marker), "local", "iperf3 reported an error: "
                    + root.get("error").asText()));
            return;
        }
        boolean client = !root.path("start").has("accepted_connection");
        JsonNode rev = testStart.path("reverse");
        boolean reverse = rev.asInt(0) == 1 || rev.asBoolean(false);
        String main = reverse ? StreamMetrics.REVERSE : StreamMetrics.FORWARD;
        String other = reverse ? StreamMetrics.FORWARD : StreamMetrics.REVERSE;
        boolean bidir = root.path("end").has("sum_received_bidir_reverse") || root.path("end").has("sum_bidir_reverse");
        for (JsonNode interval : root.path("intervals")) {
            bidir |= interval.has("sum_bidir_reverse");
        }
        Side side = new Side(source, root, marker, protocol.equals("udp"), client, out);
        side.direction(main, "sum", "");
        if (bidir) {
            side.direction(other, "sum_bidir_reverse", "_bidir_reverse");
        }
    }

    /**
     * @return whether the test ran over IPv6, from {@code start.connected[0].local_host}; an IPv4
     *     address mapped into IPv6 ({@code ::ffff:a.b.c.d}, a server listening on {@code ::}) is IPv4
     */
    static boolean ipv6(JsonNode root) {
        String host = root.path("start").path("connected").path(0).path("local_host").asText("");
        return host.contains(":") && !host.toLowerCase(Locale.ROOT).startsWith("::ffff:");
    }

    /** One file's side of the test: the client's or the server's. */
    private record Side(String source, JsonNode root, String marker, boolean udp, boolean client, MetricSet out) {

        void direction(String direction, String intervalKey, String endSuffix) {
            boolean derivedSender = client == direction.equals(StreamMetrics.FORWARD);
            List<JsonNode> received = new ArrayList<>();
            List<Integer> indices = new ArrayList<>();
            int omitted = 0;
            int sent = 0;
            int index = 0;
            for (JsonNode interval : root.path("intervals")) {
                index++;
                JsonNode sum = interval.get(intervalKey);
                if (sum == null || !sum.isObject()) {
                    continue;
                }
                boolean sender = sum.has("sender") ? sum.path("sender").asBoolean() : derivedSender;
                if (sender) {
                    sent++;
                } else if (sum.path("omitted").asBoolean(false)) {
                    omitted++;
                } else {
                    received.add(sum);
                    indices.add(index);
                }
            }
            boolean thisSideSent = sent > 0 || received.isEmpty() && omitted == 0 && derivedSender;
            TreeMap<String, String> labels = new TreeMap<>();
            labels.put(StreamMetrics.DIRECTION, direction);
            int streams = root.path("start").path("test_start").path("num_streams").asInt(1);
            if (streams > 1) {
                // the file's sums, labelled as linerate's agent and iperf3 client label theirs
                labels.put(StreamMetrics.STREAM, StreamMetrics.SUM);
                labels.put(StreamMetrics.STREAMS, Integer.toString(streams));
            }
            senderRate(direction, endSuffix, thisSideSent, labels);
            String who = direction.equals(StreamMetrics.FORWARD) ? "client to server" : "server to client";
            if (!received.isEmpty()) {
                for (int i = 0; i < received.size(); i++) {
                    String where = "/intervals/" + (indices.get(i) - 1) + "/" + intervalKey;
                    receiver(where, received.get(i), Metric.LOCAL, labels);
                }
                return;
            }
            if (omitted > 0) {
                out.error(Problem.of(source, 0, key(StreamMetrics.goodput(marker), Metric.LOCAL, labels), "iperf3 " + direction
                        + " (" + who + "): all " + omitted + " receiver intervals are omitted (-O), so nothing was measured"));
                return;
            }
            String endKey = "sum_received" + endSuffix;
            JsonNode end = root.path("end").get(endKey);
            if (client && end != null && end.isObject()) {
                receiver("/end/" + endKey, end, StreamMetrics.REMOTE, labels);
                return;
            }
            out.warn(new Problem(source, 0, StreamMetrics.goodput(marker), Metric.LOCAL, "iperf3 " + direction + " (" + who
                    + "): the input holds only the sender's figures (" + sent + " intervals flagged sender and no receiver's end."
                    + endKey + (client ? "" : ", which iperf3 fills only in the client's output") + "), so only "
                    + StreamMetrics.sent(marker) + " is read and the receiver's goodput" + (udp ? ", loss and jitter are" : " is")
                    + " unknown; gate the client's -J output of a complete run for them"));
        }

        /**
         * The sender's rate over the whole test, {@code end.sum_sent}: local when this side sent;
         * remote in the client's file of a direction the server sent (the server's figure, reported
         * back); absent from the server's file of a direction it received, where iperf3 leaves it at 0.
         */
        private void senderRate(String direction, String endSuffix, boolean thisSideSent, TreeMap<String, String> labels) {
            if (!thisSideSent && !client) {
                return;
            }
            String endKey = "sum_sent" + endSuffix;
            JsonNode end = root.path("end").get(endKey);
            if (end == null || !end.isObject()) {
                return;
            }
            String host = StreamMetrics.host(thisSideSent);
            sample("/end/" + endKey + "/bits_per_second", StreamMetrics.sent(marker), end.get("bits_per_second"), 1e6,
                    StreamMetrics.MBPS, end.path("end").asDouble(0), host, labels);
        }

        private void receiver(String where, JsonNode sum, String host, TreeMap<String, String> labels) {
            double time = sum.path("end").asDouble(0);
            sample(where + "/bits_per_second", StreamMetrics.goodput(marker), sum.get("bits_per_second"), 1e6,
                    StreamMetrics.MBPS, time, host, labels);
            if (udp) {
                sample(where + "/lost_percent", StreamMetrics.lost(marker), sum.get("lost_percent"), 1, "%", time, host,
                        labels);
                sample(where + "/jitter_ms", StreamMetrics.jitter(marker), sum.get("jitter_ms"), 1, "ms", time, host,
                        labels);
            }
        }

        private SeriesKey key(String name, String host, TreeMap<String, String> labels) {
            return new SeriesKey(marker, name, host, labels);
        }

        private void sample(String where, String name, JsonNode v, double divisor, String unit, double time, String host,
                            TreeMap<String, String> labels) {
            if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
                out.error(Problem.of(source, 0, key(name, host, labels), "iperf3 " + where + ": " + name + " value "
                        + (v == null ? "is missing" : v + " is not allowed") + "; allowed: a finite number"));
                return;
            }
            String refused = UnitRange.refusal(v.asDouble() / divisor, unit);
            if (refused != null) {
                out.error(Problem.of(source, 0, key(name, host, labels), "iperf3 " + where + ": " + name + " " + refused));
                return;
            }
            out.add(new Observation(key(name, host, labels), source, v.asDouble() / divisor, unit, time, source, 0));
        }
    }
}
