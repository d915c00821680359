package io.linerate.regression.internal;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.regression.MetricReader;
import io.linerate.regression.MetricSet;
import io.linerate.regression.Observation;
import io.linerate.regression.Problem;
import io.linerate.regression.SeriesKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Reads iperf3's {@code -J} output (checked against iperf3 3.12) and gates what the receiver got:
 * its goodput and, for UDP, its loss and jitter. The sender's figures are never read as goodput.
 *
 * <p>Which side is which: the file is the client's unless {@code start.accepted_connection} says
 * it is the server's. {@code start.test_start.reverse} is 0 when the client sends ({@code forward})
 * and 1 with {@code -R}, when the server sends ({@code reverse}); with {@code --bidir} the opposite
 * direction is in the {@code *_bidir_reverse} sums. Per direction:
 * <ul>
 * <li>when this side received (the interval sums of that direction, {@code intervals[].sum} or
 * {@code intervals[].sum_bidir_reverse}, have {@code "sender": false}), one sample per interval
 * not flagged {@code omitted} (iperf3's {@code -O} warm-up), at time {@code end};</li>
 * <li>when this side sent and is the client, one sample from the receiver's summary that iperf3
 * exchanges at the end, {@code end.sum_received} or {@code end.sum_received_bidir_reverse} (iperf3
 * leaves the warm-up out of it). Not {@code end.sum}: for a UDP client it holds the sender's bytes
 * and rate beside the receiver's jitter and loss;</li>
 * <li>otherwise (the server's file of a direction it sent, whose {@code sum_received} iperf3 leaves
 * at 0, or a file without {@code end.sum_received}) the input holds only sender-side figures for
 * that direction, which is an error that says so.</li>
 * </ul>
 * Without {@code sender} flags (iperf3 before 3.7), this side is taken to have sent when it is the
 * client of a forward direction or the server of a reverse one.
 *
 * <p>Metrics, with {@code <p>} the lower-case {@code start.test_start.protocol} and a label
 * {@code direction} ({@code forward} or {@code reverse}): {@code iperf3_<p>_mbps}
 * ({@code bits_per_second / 1e6}, Mbit/s), and for UDP {@code iperf3_<p>_lost_pct}
 * ({@code lost_percent}, %) and {@code iperf3_<p>_jitter_ms} ({@code jitter_ms}, ms). A top-level
 * {@code error} is an error for the whole input.
 */
public final class Iperf3Reader implements MetricReader {
    private static final String FORWARD = "forward";
    private static final String REVERSE = "reverse";

    @Override
    public String format() {
        return "iperf3";
    }

    @Override
    public boolean accepts(String content) {
        if (Json.firstChar(content) != '{') {
            return false;
        }
        JsonNode n = Json.parseWhole(content);
        return n != null && n.has("start") && (n.has("intervals") || n.has("error"));
    }

    @Override
    public void read(String source, String content, MetricSet out) {
        JsonNode root = Json.parseWhole(content);
        if (root == null) {
            out.error(new Problem(source, 0, "", "", "iperf3 output is not valid JSON"));
            return;
        }
        JsonNode testStart = root.path("start").path("test_start");
        String protocol = testStart.path("protocol").asText("tcp").toLowerCase(Locale.ROOT);
        String prefix = "iperf3_" + protocol.replaceAll("[^a-z0-9]", "_");
        if (root.hasNonNull("error")) {
            out.error(new Problem(source, 0, prefix + "_mbps", "local", "iperf3 reported an error: " + root.get("error").asText()));
            return;
        }
        boolean client = !root.path("start").has("accepted_connection");
        JsonNode rev = testStart.path("reverse");
        boolean reverse = rev.asInt(0) == 1 || rev.asBoolean(false);
        String main = reverse ? REVERSE : FORWARD;
        String other = reverse ? FORWARD : REVERSE;
        boolean bidir = root.path("end").has("sum_received_bidir_reverse") || root.path("end").has("sum_bidir_reverse");
        for (JsonNode interval : root.path("intervals")) {
            bidir |= interval.has("sum_bidir_reverse");
        }
        boolean udp = protocol.equals("udp");
        direction(source, root, prefix, udp, client, main, "sum", "sum_received", out);
        if (bidir) {
            direction(source, root, prefix, udp, client, other, "sum_bidir_reverse", "sum_received_bidir_reverse", out);
        }
    }

    private static void direction(String source, JsonNode root, String prefix, boolean udp, boolean client,
                                  String direction, String intervalKey, String endKey, MetricSet out) {
        boolean derivedSender = client == direction.equals(FORWARD);
        List<JsonNode> received = new ArrayList<>();
        int omitted = 0;
        int sent = 0;
        int index = 0;
        List<Integer> indices = new ArrayList<>();
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
        TreeMap<String, String> labels = new TreeMap<>();
        labels.put("direction", direction);
        String who = direction.equals(FORWARD) ? "client to server" : "server to client";
        if (!received.isEmpty()) {
            for (int i = 0; i < received.size(); i++) {
                samples(source, "interval " + indices.get(i), received.get(i), prefix, udp, labels, out);
            }
            return;
        }
        if (omitted > 0) {
            out.error(Problem.of(source, 0, new SeriesKey("", prefix + "_mbps", "local", labels), "iperf3 " + direction + " (" + who + "): all "
                    + omitted + " receiver intervals are omitted (-O), so nothing was measured"));
            return;
        }
        JsonNode end = root.path("end").get(endKey);
        if (client && end != null && end.isObject()) {
            samples(source, "end." + endKey, end, prefix, udp, labels, out);
            return;
        }
        out.error(Problem.of(source, 0, new SeriesKey("", prefix + "_mbps", "local", labels), "iperf3 " + direction + " (" + who + "): the input"
                + " holds only sender-side figures (" + sent + " intervals flagged sender and no receiver's end."
                + endKey + (client ? "" : ", which iperf3 fills only in the client's output") + "), so the"
                + " receiver's goodput" + (udp ? ", loss and jitter are" : " is") + " unknown; gate the client's"
                + " -J output of a complete run"));
    }

    private static void samples(String source, String where, JsonNode sum, String prefix, boolean udp,
                                TreeMap<String, String> labels, MetricSet out) {
        double time = sum.path("end").asDouble(0);
        sample(source, where, prefix + "_mbps", sum.get("bits_per_second"), 1e6, "Mbit/s", time, labels, out);
        if (udp) {
            sample(source, where, prefix + "_lost_pct", sum.get("lost_percent"), 1, "%", time, labels, out);
            sample(source, where, prefix + "_jitter_ms", sum.get("jitter_ms"), 1, "ms", time, labels, out);
        }
    }

    private static void sample(String source, String where, String name, JsonNode v, double divisor, String unit,
                               double time, TreeMap<String, String> labels, MetricSet out) {
        if (v == null || !v.isNumber() || !Double.isFinite(v.asDouble())) {
            out.error(new Problem(source, 0, name, "local", "iperf3 " + where + ": " + name + " value "
                    + (v == null ? "is missing" : v + " is not allowed") + "; allowed: a finite number"));
            return;
        }
        out.add(new Observation(new SeriesKey("", name, "local", labels), source, v.asDouble() / divisor, unit, time,
                source, 0));
    }
}
