package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Idle;
import io.linerate.core.RawTransferSpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The agent's end of a raw-frame run as the JSON object the client sends: {@code tx_interface} or
 * {@code rx_interface} (the agent's own interface; the other is null), {@code ethertypes} (an array
 * of integers), {@code frame_size} (bytes), {@code dst_mac} and {@code src_mac} (six hex octets
 * separated by {@code :}, or null), {@code rate_bps} (L2, 0 = unlimited), {@code duration_ns},
 * {@code warmup_ns}, {@code interval_ns}, {@code batch}, {@code steer}, {@code allow_unsteered},
 * {@code hw_timestamps}, {@code retire_timeout_ns}, {@code drain_timeout_ns}, {@code tx_ring} and
 * {@code idle} (a label or null). The end is one-ended and runs on the agent's host: its endpoint
 * is loopback. Reading validates as {@link RawTransferSpec.Builder#build} does.
 */
public final class RawSpecJson {
    private RawSpecJson() {}

    public static ObjectNode node(RawTransferSpec end) {
        ObjectNode n = Control.MAPPER.createObjectNode();
        n.put("tx_interface", end.txInterface().orElse(null));
        n.put("rx_interface", end.rxInterface().orElse(null));
        ArrayNode types = n.putArray("ethertypes");
        end.etherTypes().forEach(types::add);
        n.put("frame_size", end.frameSize());
        n.put("dst_mac", end.destinationMac().map(RawSpecJson::mac).orElse(null));
        n.put("src_mac", end.sourceMac().map(RawSpecJson::mac).orElse(null));
        n.put("rate_bps", end.rateBitsPerSecond());
        n.put("duration_ns", end.duration().toNanos());
        n.put("warmup_ns", end.warmup().toNanos());
        n.put("interval_ns", end.interval().toNanos());
        n.put("batch", end.batch());
        n.put("steer", end.steer());
        n.put("allow_unsteered", end.allowUnsteered());
        n.put("hw_timestamps", end.hardwareTimestamps());
        n.put("retire_timeout_ns", end.retireTimeout().toNanos());
        n.put("drain_timeout_ns", end.drainTimeout().toNanos());
        n.put("tx_ring", end.txRing());
        n.put("idle", end.idle().map(Idle::label).orElse(null));
        return n;
    }

    /** @throws IllegalArgumentException naming the field that is missing, of the wrong type or out of range */
    public static RawTransferSpec read(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("spec is not a JSON object");
        }
        Optional<String> tx = optionalText(n, "tx_interface");
        Optional<String> rx = optionalText(n, "rx_interface");
        if (tx.isPresent() == rx.isPresent()) {
            throw new IllegalArgumentException("the agent runs one end of a raw run: give \"tx_interface\" or "
                    + "\"rx_interface\", not " + (tx.isPresent() ? "both" : "neither"));
        }
        JsonNode types = n.get("ethertypes");
        if (types == null || !types.isArray()) {
            throw new IllegalArgumentException("spec field \"ethertypes\" is missing or not an array");
        }
        List<Integer> etherTypes = new ArrayList<>();
        for (JsonNode t : types) {
            if (!t.isInt()) {
                throw new IllegalArgumentException("spec field \"ethertypes\" holds " + t + "; allowed: integers 0x0600..0xffff");
            }
            etherTypes.add(t.asInt());
        }
        RawTransferSpec.Builder b = tx.isPresent() ? RawTransferSpec.txOnly(tx.get()) : RawTransferSpec.rxOnly(rx.get());
        b.etherTypes(etherTypes)
                .frameSize(SpecJson.toInt(n, "frame_size"))
                .rateBitsPerSecond(SpecJson.integer(n, "rate_bps"))
                .duration(Duration.ofNanos(SpecJson.integer(n, "duration_ns")))
                .warmup(Duration.ofNanos(SpecJson.integer(n, "warmup_ns")))
                .interval(Duration.ofNanos(SpecJson.integer(n, "interval_ns")))
                .batch(SpecJson.toInt(n, "batch"))
                .steer(SpecJson.bool(n, "steer"))
                .allowUnsteered(SpecJson.bool(n, "allow_unsteered"))
                .hardwareTimestamps(SpecJson.bool(n, "hw_timestamps"))
                .retireTimeout(Duration.ofNanos(SpecJson.integer(n, "retire_timeout_ns")))
                .drainTimeout(Duration.ofNanos(SpecJson.integer(n, "drain_timeout_ns")))
                .txRing(SpecJson.bool(n, "tx_ring"));
        optionalText(n, "dst_mac").ifPresent(m -> b.destinationMac(RawTransferSpec.parseMac(m)));
        optionalText(n, "src_mac").ifPresent(m -> b.sourceMac(RawTransferSpec.parseMac(m)));
        optionalText(n, "idle").ifPresent(i -> b.idle(Idle.parse(i)));
        return b.build();
    }

    /**
     * @param iface an interface of this host
     * @return its MAC, read from {@code /sys/class/net/IF/address} (Java's {@code NetworkInterface}
     *     does not list an interface without an IP address, as a raw-frame link often is), or empty
     *     when it has none that can be read
     */
    public static Optional<byte[]> macOf(String iface) {
        try {
            RawTransferSpec.checkInterfaceName(iface);
            byte[] mac = RawTransferSpec.parseMac(Files.readString(Path.of("/sys/class/net", iface, "address"),
                    StandardCharsets.US_ASCII));
            return Optional.of(mac);
        } catch (IOException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** @return six octets as {@code 02:00:00:00:00:01} */
    public static String mac(byte[] mac) {
        return HexFormat.ofDelimiter(":").formatHex(mac);
    }

    private static Optional<String> optionalText(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return Optional.empty();
        }
        if (!v.isTextual()) {
            throw new IllegalArgumentException("spec field \"" + field + "\" is not a string or null");
        }
        return Optional.of(v.asText());
    }
}
