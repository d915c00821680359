package io.linerate.peers.iperf3;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Bound;
import io.linerate.core.Protocol;
import io.linerate.core.TransferSpec;

/**
 * The parameters linerate's iperf3 client sends at PARAM_EXCHANGE, named as iperf3's
 * {@code iperf_api.c} (send_parameters) names them: protocol, bound ({@code time} in whole seconds
 * rounded up, {@code num} bytes, {@code blockcount} messages), streams, direction, {@code len},
 * {@code bandwidth} per stream in bit/s, {@code pacing_timer} in µs, {@code TOS}, {@code window}.
 */
final class ClientParameters {
    private ClientParameters() {}

    /** @return the parameters object of a test of {@code spec} with {@code options} */
    static ObjectNode of(TransferSpec spec, Iperf3Options options, boolean bidir) {
        boolean udp = spec.protocol() == Protocol.UDP;
        ObjectNode p = ControlConnection.object();
        p.put(udp ? "udp" : "tcp", true);
        p.put("omit", 0);
        Bound b = spec.bound();
        p.put("time", b.kind() == Bound.Kind.DURATION ? (b.amount() + 999_999_999L) / 1_000_000_000L : 0);
        p.put("num", b.kind() == Bound.Kind.BYTES ? b.amount() : 0);
        p.put("blockcount", b.kind() == Bound.Kind.MESSAGES ? b.amount() : 0);
        if (spec.noDelay()) {
            p.put("nodelay", true);
        }
        p.put("parallel", options.parallel());
        if (options.reverse()) {
            p.put("reverse", true);
        }
        if (bidir) {
            p.put("bidirectional", true);
        }
        if (spec.sendBufferBytes() > 0) {
            p.put("window", spec.sendBufferBytes());
        }
        p.put("len", spec.payloadBytes());
        p.put("pacing_timer", spec.pacingTimer().toNanos() / 1000); // iperf3 counts it in µs
        if (spec.rateBitsPerSecond() > 0) {
            p.put("bandwidth", Math.max(1, spec.rateBitsPerSecond() / options.parallel()));
        }
        if (spec.trafficClass() != 0) {
            p.put("TOS", spec.trafficClass());
        }
        if (options.udpCounters64Bit()) {
            p.put("udp_counters_64bit", 1);
        }
        p.put("client_version", "linerate");
        return p;
    }
}
