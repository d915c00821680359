package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.StreamIo;
import io.linerate.core.TransferSpec;
import java.time.Duration;
import java.util.Locale;

/**
 * A {@link TransferSpec} as the JSON object the client sends to the agent: {@code protocol}
 * ({@code tcp}|{@code udp}), {@code family} ({@code 4}|{@code 6}), {@code payload_bytes},
 * {@code bound} ({@code duration}|{@code bytes}|{@code messages}) with {@code bound_amount} (ns,
 * bytes or messages), {@code rate_bps} (0 = unlimited), {@code nodelay}, {@code tclass},
 * {@code sndbuf_bytes}, {@code rcvbuf_bytes} (0 = kernel default), {@code warmup_ns},
 * {@code interval_ns}, {@code io_timeout_ns} and {@code stream_id}. The port, the endpoint and a
 * full log stay on the client. Reading validates as {@link TransferSpec.Builder#build} does.
 */
public final class SpecJson {
    private SpecJson() {}

    /** @return the spec as a JSON object text */
    public static String write(TransferSpec spec) {
        return node(spec).toString();
    }

    /**
     * @param json a JSON object as {@link #write} makes it
     * @return the spec
     * @throws IllegalArgumentException naming the field that is missing, of the wrong type or out of
     *     range
     */
    public static TransferSpec read(String json) {
        try {
            return read(Control.MAPPER.readTree(json));
        } catch (JacksonException e) {
            throw new IllegalArgumentException("spec is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    public static ObjectNode node(TransferSpec spec) {
        ObjectNode n = Control.MAPPER.createObjectNode();
        n.put("protocol", spec.protocol().label());
        n.put("family", spec.family().label());
        n.put("payload_bytes", spec.payloadBytes());
        n.put("bound", spec.bound().kind().name().toLowerCase(Locale.ROOT));
        n.put("bound_amount", spec.bound().amount());
        n.put("rate_bps", spec.rateBitsPerSecond());
        n.put("nodelay", spec.noDelay());
        n.put("tclass", spec.trafficClass());
        n.put("sndbuf_bytes", spec.sendBufferBytes());
        n.put("rcvbuf_bytes", spec.receiveBufferBytes());
        n.put("warmup_ns", spec.warmup().toNanos());
        n.put("interval_ns", spec.interval().toNanos());
        n.put("io_timeout_ns", spec.ioTimeout().toNanos());
        n.put("stream_id", spec.streamId());
        StreamIo io = spec.io();
        if (!io.isDefault()) {
            // absent when default, so that an agent of the previous release reads the spec as before
            ObjectNode o = n.putObject("io");
            o.put("batch", io.batch());
            o.put("gso", io.gso());
            o.put("zerocopy", io.zeroCopySend());
            o.put("skip_rx_copy", io.skipReceiveCopy());
        }
        return n;
    }

    public static TransferSpec read(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("spec is not a JSON object");
        }
        Protocol protocol = Protocol.parse(text(n, "protocol"));
        if (protocol != Protocol.TCP && protocol != Protocol.UDP) {
            throw new IllegalArgumentException("protocol " + protocol.label() + " is not a stream protocol; allowed: tcp, udp");
        }
        String kind = text(n, "bound");
        long amount = integer(n, "bound_amount");
        Bound bound = switch (kind) {
            case "duration" -> Bound.duration(Duration.ofNanos(amount));
            case "bytes" -> Bound.bytes(amount);
            case "messages" -> Bound.messages(amount);
            default -> throw new IllegalArgumentException("bound '" + kind + "' is unknown; allowed: duration, bytes, messages");
        };
        return TransferSpec.builder()
                .protocol(protocol)
                .family(AddressFamily.parse(text(n, "family")))
                .payloadBytes(toInt(n, "payload_bytes"))
                .bound(bound)
                .rateBitsPerSecond(integer(n, "rate_bps"))
                .noDelay(bool(n, "nodelay"))
                .trafficClass(toInt(n, "tclass"))
                .sendBufferBytes(toInt(n, "sndbuf_bytes"))
                .receiveBufferBytes(toInt(n, "rcvbuf_bytes"))
                .warmup(Duration.ofNanos(integer(n, "warmup_ns")))
                .interval(Duration.ofNanos(integer(n, "interval_ns")))
                .ioTimeout(Duration.ofNanos(integer(n, "io_timeout_ns")))
                .streamId(toInt(n, "stream_id"))
                .io(io(n.get("io")))
                .build();
    }

    /** @return the spec's {@code io} object, or the default where a spec (of the previous release) has none */
    private static StreamIo io(JsonNode o) {
        if (o == null) {
            return StreamIo.DEFAULT;
        }
        if (!o.isObject()) {
            throw new IllegalArgumentException("spec field \"io\" is not a JSON object");
        }
        return new StreamIo(toInt(o, "batch"), bool(o, "gso"), bool(o, "zerocopy"), bool(o, "skip_rx_copy"));
    }

    public static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isTextual()) {
            throw new IllegalArgumentException("spec field \"" + field + "\" is missing or not a string");
        }
        return v.asText();
    }

    public static long integer(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
            throw new IllegalArgumentException("spec field \"" + field + "\" is missing or not a 64-bit integer");
        }
        return v.asLong();
    }

    public static int toInt(JsonNode n, String field) {
        long v = integer(n, field);
        if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("spec field \"" + field + "\" = " + v + " is out of range; allowed: a 32-bit integer");
        }
        return (int) v;
    }

    public static boolean bool(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || !v.isBoolean()) {
            throw new IllegalArgumentException("spec field \"" + field + "\" is missing or not true/false");
        }
        return v.asBoolean();
    }
}
