package io.linerate.peers.agent.internal.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Affinity;
import io.linerate.core.Idle;
import io.linerate.core.Muxer;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.IterationPolicy;
import java.time.Duration;
import java.util.List;
import java.util.OptionalInt;

/**
 * What the agent needs of a ping-pong or request/response spec, as the JSON object the client
 * sends. Ping-pong: {@code protocol} ({@code tcp}|{@code udp}), {@code family}, {@code max_size}
 * (bytes), {@code server_muxer}, {@code idle} (optional), {@code nodelay}, {@code sndbuf_bytes},
 * {@code rcvbuf_bytes}, {@code tclass}, {@code timeout_ns}, {@code server_cpu} (optional: the CPU
 * the echo thread runs on, {@code --affinity}) and {@code run_ns}, the longest the
 * client's sweep can last: two time caps per size (the warm-up and the measured part are each
 * capped by {@link IterationPolicy#maxTime()}). Request/response: {@code family}, {@code flows},
 * {@code request_bytes}, {@code response_bytes}, {@code crr}, {@code nodelay}, {@code muxer},
 * {@code idle} (optional), {@code warmup_ns}, {@code duration_ns} and {@code timeout_ns}. The
 * sizes, policy, rate, percentile and any full log stay on the client.
 */
public final class LatencySpecJson {
    private LatencySpecJson() {}

    /** @return the longest a ping-pong sweep can last, ns: two {@link IterationPolicy#maxTime()} per size */
    public static long runNanos(PingPongSpec spec) {
        return spec.sizes().size() * 2L * spec.policy().maxTime().toNanos();
    }

    public static ObjectNode pingPong(PingPongSpec spec) {
        ObjectNode n = Control.MAPPER.createObjectNode();
        n.put("protocol", spec.protocol().label());
        n.put("family", spec.family().label());
        n.put("max_size", spec.maxSize());
        n.put("server_muxer", spec.serverMuxer().label());
        if (spec.serverMuxer().polls()) {
            spec.idle().ifPresent(i -> n.put("idle", i.label()));
        }
        n.put("nodelay", spec.noDelay());
        n.put("sndbuf_bytes", spec.sendBufferBytes());
        n.put("rcvbuf_bytes", spec.receiveBufferBytes());
        n.put("tclass", spec.trafficClass());
        n.put("timeout_ns", spec.timeout().toNanos());
        n.put("run_ns", runNanos(spec));
        spec.affinity().serverCpu().ifPresent(cpu -> n.put("server_cpu", cpu));
        return n;
    }

    /**
     * @return the echo end's spec: one size (the largest), the client's options and timeout, its
     *     server muxer on both ends
     * @throws IllegalArgumentException naming the field that is missing or out of range
     */
    public static PingPongSpec pingPong(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("spec is not a JSON object");
        }
        PingPongProtocol p = PingPongProtocol.parse(SpecJson.text(n, "protocol"));
        if (p != PingPongProtocol.TCP && p != PingPongProtocol.UDP) {
            throw new IllegalArgumentException("ping-pong protocol " + p.label() + " does not cross hosts; allowed: tcp, udp");
        }
        Muxer muxer = Muxer.parse(SpecJson.text(n, "server_muxer"));
        return PingPongSpec.builder().protocol(p).family(AddressFamily.parse(SpecJson.text(n, "family")))
                .sizes(List.of(SpecJson.toInt(n, "max_size"))).serverMuxer(muxer).clientMuxer(muxer)
                .idle(n.hasNonNull("idle") ? Idle.parse(SpecJson.text(n, "idle")) : null)
                .noDelay(SpecJson.bool(n, "nodelay")).sendBufferBytes(SpecJson.toInt(n, "sndbuf_bytes"))
                .receiveBufferBytes(SpecJson.toInt(n, "rcvbuf_bytes")).trafficClass(SpecJson.toInt(n, "tclass"))
                .timeout(Duration.ofNanos(SpecJson.integer(n, "timeout_ns")))
                .affinity(n.hasNonNull("server_cpu")
                        ? new Affinity(OptionalInt.empty(), OptionalInt.of(SpecJson.toInt(n, "server_cpu"))) : Affinity.NONE)
                .build();
    }

    public static ObjectNode rr(RrSpec spec) {
        ObjectNode n = Control.MAPPER.createObjectNode();
        n.put("family", spec.family().label());
        n.put("flows", spec.flows());
        n.put("request_bytes", spec.requestBytes());
        n.put("response_bytes", spec.responseBytes());
        n.put("crr", spec.crr());
        n.put("nodelay", spec.noDelay());
        n.put("muxer", spec.muxer().label());
        spec.idle().ifPresent(i -> n.put("idle", i.label()));
        n.put("warmup_ns", spec.warmup().toNanos());
        n.put("duration_ns", spec.duration().toNanos());
        n.put("timeout_ns", spec.timeout().toNanos());
        return n;
    }

    /** @throws IllegalArgumentException naming the field that is missing or out of range */
    public static RrSpec rr(JsonNode n) {
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException("spec is not a JSON object");
        }
        return RrSpec.builder().family(AddressFamily.parse(SpecJson.text(n, "family")))
                .flows(SpecJson.toInt(n, "flows")).requestBytes(SpecJson.toInt(n, "request_bytes"))
                .responseBytes(SpecJson.toInt(n, "response_bytes")).crr(SpecJson.bool(n, "crr"))
                .noDelay(SpecJson.bool(n, "nodelay")).muxer(Muxer.parse(SpecJson.text(n, "muxer")))
                .idle(n.hasNonNull("idle") ? Idle.parse(SpecJson.text(n, "idle")) : null)
                .warmup(Duration.ofNanos(SpecJson.integer(n, "warmup_ns")))
                .duration(Duration.ofNanos(SpecJson.integer(n, "duration_ns")))
                .timeout(Duration.ofNanos(SpecJson.integer(n, "timeout_ns"))).build();
    }
}
