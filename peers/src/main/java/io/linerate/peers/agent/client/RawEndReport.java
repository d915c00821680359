package io.linerate.peers.agent.client;


import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.Better;
import io.linerate.core.Metric;
import io.linerate.core.RawEndCounts;
import io.linerate.core.sink.JsonObject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * What one end of a raw-frame run counted: this host's end from its transport's typed counts
 * ({@link RawEndCounts}), the agent's from its {@code result} message, whose {@code detail} is the
 * raw pattern's JSON as the afpacket transport's {@code RawResultJson} writes it (the agent's wire
 * format). Either way this package needs no provider's types.
 *
 * @param sender whether the end sent (else it received)
 * @param interfaceName the end's interface
 * @param streams per ethertype, in the spec's order: what the end counted
 * @param cpuNanos the end's CPU time, ns
 * @param nicPackets the packets its interface counted over the run ({@code tx_packets} of a sender,
 *     {@code rx_packets} of a receiver), when they were read
 * @param invalidReasons why the end's own result is not valid
 * @param metrics the end's own metrics, with the host they were given
 */
public record RawEndReport(boolean sender, String interfaceName, List<StreamCounts> streams, long cpuNanos,
                           OptionalLong nicPackets, List<String> invalidReasons, List<Metric> metrics) {

    /**
     * One stream's counts at one end.
     *
     * @param etherType the stream's ethertype
     * @param windowFrames frames of the measured window: sent, or distinct frames received
     * @param windowBytes their bytes (L2, without FCS)
     * @param totalFrames frames, warm-up included
     * @param ringDrops frames the receiving end's kernel ring dropped (its {@code kernel_drops}); 0 for a sender
     */
    public record StreamCounts(int etherType, long windowFrames, long windowBytes, long totalFrames, long ringDrops) {}

    /** Copies the lists. */
    public RawEndReport {
        streams = List.copyOf(streams);
        invalidReasons = List.copyOf(invalidReasons);
        metrics = List.copyOf(metrics);
    }

    /** @return the counts of the stream of {@code etherType}, if the end ran it */
    public java.util.Optional<StreamCounts> stream(int etherType) {
        return streams.stream().filter(s -> s.etherType() == etherType).findFirst();
    }

    /**
     * @param end one end's counts, as its transport gave them
     * @param invalidReasons the end's result's reasons
     * @param metrics the end's result's metrics
     * @return the end's report
     */
    static RawEndReport of(RawEndCounts end, List<String> invalidReasons, List<Metric> metrics) {
        List<StreamCounts> streams = new ArrayList<>();
        for (RawEndCounts.StreamCounts s : end.streams()) {
            streams.add(new StreamCounts(s.etherType(), s.windowFrames(), s.windowBytes(), s.totalFrames(), s.ringDrops()));
        }
        return new RawEndReport(end.sender(), end.interfaceName(), streams, end.cpuNanos(), end.nicPackets(),
                invalidReasons, metrics);
    }

    /**
     * @param detail a raw result's detail object
     * @param invalidReasons the result's reasons
     * @param metrics the result's metrics
     * @throws IOException when a count the end's role needs is missing
     */
    private static RawEndReport ofDetail(JsonNode detail, List<String> invalidReasons, List<Metric> metrics) throws IOException {
        if (detail == null || !detail.isObject()) {
            throw new IOException("the raw result has no detail object");
        }
        boolean sender = detail.path("tx").isTextual();
        String side = sender ? "tx" : "rx";
        List<StreamCounts> streams = new ArrayList<>();
        for (JsonNode s : detail.path("streams")) {
            streams.add(new StreamCounts(Integer.decode(s.path("ethertype").asText("-1")), num(s, side + "_frames"),
                    num(s, side + "_bytes"), num(s, side + "_frames_total"), sender ? 0 : num(s, "kernel_drops")));
        }
        JsonNode nic = detail.path(side + "_nic").path(side + "_packets");
        return new RawEndReport(sender, detail.path(side).asText(), streams,
                detail.path("cpu_ns").path(sender ? "sender" : "receiver").asLong(0),
                nic.canConvertToLong() ? OptionalLong.of(nic.asLong()) : OptionalLong.empty(), invalidReasons, metrics);
    }

    /** Reads the agent's {@code result} message (the agent's raw end writes it); its metrics get host {@code remote}. */
    static RawEndReport ofAgent(JsonNode result) throws IOException {
        List<String> reasons = new ArrayList<>();
        result.path("invalid_reasons").forEach(r -> reasons.add(r.asText()));
        List<Metric> metrics = new ArrayList<>();
        for (JsonNode m : result.path("metrics")) {
            Map<String, String> labels = new TreeMap<>();
            m.path("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
            Metric x = new Metric(m.path("name").asText(), m.path("value").asDouble(), m.path("unit").asText(""),
                    RemoteRawResult.REMOTE, Math.max(0, m.path("time").asDouble()), labels,
                    Better.valueOf(m.path("better").asText("HIGHER")));
            metrics.add(m.path("advisory").asBoolean(false) ? x.asAdvisory() : x);
        }
        return ofDetail(result.get("detail"), reasons, metrics);
    }

    /** @return the end as its side of the joined result's JSON */
    JsonObject json() {
        List<JsonObject> s = new ArrayList<>();
        for (StreamCounts c : streams) {
            s.add(JsonObject.create().put("ethertype", String.format(java.util.Locale.ROOT, "0x%04x", c.etherType()))
                    .put("frames", c.windowFrames()).put("bytes", c.windowBytes()).put("frames_total", c.totalFrames())
                    .put("ring_drops", c.ringDrops()));
        }
        JsonObject o = JsonObject.create().put("role", sender ? "sender" : "receiver").put("interface", interfaceName)
                .putObjects("streams", s).put("cpu_ns", cpuNanos);
        if (nicPackets.isPresent()) {
            o.put(sender ? "nic_tx_packets" : "nic_rx_packets", nicPackets.getAsLong());
        } else {
            o.putNull(sender ? "nic_tx_packets" : "nic_rx_packets");
        }
        return o.putStrings("reasons", invalidReasons).put("clock", "own");
    }

    private static long num(JsonNode n, String f) throws IOException {
        JsonNode v = n.get(f);
        if (v == null || !v.canConvertToLong()) {
            throw new IOException("the raw result's stream lacks \"" + f + "\"");
        }
        return v.asLong();
    }
}
