package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.Metric;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.sink.ResultJson;
import io.linerate.core.spi.Listening;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.RawSpecJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of a raw-frame run: the RX-only or TX-only end on one of the agent's interfaces,
 * opened through {@link Transports#select} (the afpacket transport, found at run time; an agent
 * without one, or where it is unavailable, refuses with the provider's reason).
 *
 * <p>Receiving: the agent opens its end and runs it; once its rings are open ({@link Listening}) it
 * sends {@code ready} with {@code mac}, its interface's address, and the client starts sending.
 * Sending: the agent opens its end and sends {@code ready}; the client opens its receiving end and
 * says {@code go}, and the agent sends. Either way the agent then sends {@code result}:
 * {@code valid}, {@code invalid_reasons}, {@code metrics} (each with {@code name, value, unit,
 * host, time, labels, better, advisory}) and {@code detail}, its result's detail without its
 * per-interval buckets. An end runs to its own schedule; an agent stopping under it lets it finish.
 */
final class AgentRaw {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRaw.class);

    private AgentRaw() {}

    static void serve(AgentSession session, Control c, JsonNode req) throws IOException, TransferException {
        RawTransferSpec spec;
        try {
            spec = RawSpecJson.read(req.get("spec"));
        } catch (IllegalArgumentException e) {
            session.refuse(c, "spec refused: " + e.getMessage());
            return;
        }
        AgentLimits limits = session.config().limits();
        Optional<String> over = limits.refusal("raw", spec.warmup().plus(spec.duration()), spec.frameSize());
        if (over.isEmpty() && spec.sends() && limits.maxRateBitsPerSecond() > 0
                && (spec.rateBitsPerSecond() == 0 || spec.rateBitsPerSecond() > limits.maxRateBitsPerSecond())) {
            over = Optional.of(String.format(Locale.ROOT, "raw rate of %s exceeds the agent's rate limit of %d bit/s (--max-rate)",
                    spec.rateBitsPerSecond() == 0 ? "unlimited" : spec.rateBitsPerSecond() + " bit/s",
                    limits.maxRateBitsPerSecond()));
        }
        if (over.isPresent()) {
            session.refuse(c, over.get());
            return;
        }
        Transport transport;
        try {
            transport = Transports.select(null, spec);
        } catch (IllegalArgumentException e) {
            session.refuse(c, "raw frames cannot run on this agent: " + e.getMessage());
            return;
        }
        long handshake = session.config().handshakeTimeout().toMillis();
        long runMillis = spec.warmup().plus(spec.duration()).plus(spec.drainTimeout()).toMillis();
        session.deadline(runMillis + 3 * handshake);
        String iface = spec.txInterface().or(spec::rxInterface).orElseThrow();
        MeasurementResult result;
        try (Measurement m = transport.open(spec, Clock.system())) {
            session.holds(m);
            if (spec.receives()) {
                ObjectNode ready = Control.message("ready").put("mac", RawSpecJson.macOf(iface).map(RawSpecJson::mac).orElse(null));
                Runnable say = () -> {
                    try {
                        c.send(ready);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                };
                if (m instanceof Listening l) {
                    l.whenListening(say);
                } else {
                    say.run();
                }
                LOG.info("session {}: raw RX-only end on {} through {}", session.peer(), iface, transport.name());
                result = m.run();
            } else {
                c.send(Control.message("ready"));
                c.timeout((int) Math.max(1, 2 * handshake));
                c.expect("go");
                LOG.info("session {}: raw TX-only end on {} through {}", session.peer(), iface, transport.name());
                result = m.run();
            }
        }
        c.send(resultMessage(result));
        LOG.info("session {}: raw end done, valid {}", session.peer(), result.valid());
    }

    static ObjectNode resultMessage(MeasurementResult r) throws IOException {
        ObjectNode out = Control.message("result");
        out.put("valid", r.valid());
        ArrayNode reasons = out.putArray("invalid_reasons");
        r.invalidReasons().forEach(reasons::add);
        ArrayNode metrics = out.putArray("metrics");
        for (Metric m : r.metrics()) {
            ObjectNode o = metrics.addObject().put("name", m.name()).put("value", m.value()).put("unit", m.unit())
                    .put("time", m.timeSeconds()).put("better", m.better().name()).put("advisory", m.advisory());
            ObjectNode labels = o.putObject("labels");
            m.labels().forEach(labels::put);
        }
        JsonNode detail = Control.MAPPER.readTree(ResultJson.of(r).toJson()).get("detail");
        if (detail instanceof ObjectNode d) {
            // one bucket per interval of the run: unbounded, and the client's own end has its own
            d.remove("rx_intervals");
            out.set("detail", d);
        }
        return out;
    }
}
