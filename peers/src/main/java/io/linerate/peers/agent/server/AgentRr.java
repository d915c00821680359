package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.RrSpec;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.ends.RrServerEnd;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.server.ServedCounts;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of request/response: the server of an in-JVM run ({@link RrServerEnd}) on an
 * ephemeral port of the address the client reached, until the client says {@code done}; then it
 * sends its own counts: {@code accepts} (connections) and {@code served} (responses written in
 * full), and its connections' {@code TCP_INFO} ({@link EndJson#latencyTcp}). When the agent stops first, the counts so far go back with {@code "stopped"} naming why.
 * The session's listener hears its start and, at its end, the same counts ({@link LatencyServed}).
 */
final class AgentRr {
    private static final Logger LOG = LoggerFactory.getLogger(AgentRr.class);

    private AgentRr() {}

    static void serve(AgentSession session, Control c, JsonNode req) throws IOException {
        RrSpec spec;
        try {
            spec = LatencySpecJson.rr(req.get("spec"));
        } catch (IllegalArgumentException e) {
            session.refuse(c, "spec refused: " + e.getMessage());
            return;
        }
        Optional<String> over = session.config().limits().refusal("request/response", spec.warmup().plus(spec.duration()),
                Math.max(spec.requestBytes(), spec.responseBytes()));
        if (over.isEmpty() && spec.flows() > session.config().limits().maxStreams()) {
            // each flow holds a connection of its own to the agent, as each stream of a session does
            over = Optional.of(String.format(Locale.ROOT, "%d request/response flows are out of range; this agent "
                    + "allows 1..%d (--max-streams), one connection each", spec.flows(),
                    session.config().limits().maxStreams()));
        }
        if (over.isPresent()) {
            session.refuse(c, over.get());
            return;
        }
        if (session.sameFamily(c, spec.family()) == null) {
            return;
        }
        long handshake = session.config().handshakeTimeout().toMillis();
        // the flows stop within two timeouts of the window's end (RrRunner), then the client says done
        long waitMillis = spec.warmup().plus(spec.duration()).toMillis() + 3 * spec.timeout().toMillis() + 1000 + handshake;
        session.deadline(waitMillis + handshake);
        RrServerEnd server = session.ends().rrServer(spec, session.socket().getLocalAddress());
        session.holds(server);
        session.onAbort(session::wakeControlReader);
        server.start();
        c.send(Control.message("ready").put("port", ((InetSocketAddress) server.address()).getPort()));
        LOG.info("session {}: {} server, {} B requests, {} B responses", session.peer(), spec.testName(),
                spec.requestBytes(), spec.responseBytes());
        LatencyServed served = LatencyServed.started(session, "linerate " + spec.testName() + ", " + spec.flows()
                + " flow(s), " + spec.requestBytes() + " B requests, " + spec.responseBytes() + " B responses");
        String stopped;
        try {
            stopped = LatencyEnd.awaitDone(c, session, waitMillis);
        } catch (IOException e) {
            server.stop();
            served.lost(counts(server), e);
            throw e;
        }
        // once the thread has stopped, every response written in full is counted
        server.stop();
        served.ended(counts(server), server.failure(), stopped);
        ObjectNode result = Control.message("result").put("accepts", server.accepts()).put("served", server.served());
        EndJson.latencyTcp(result, server.tcpInfo().orElseGet(() -> LatencyTcpInfo.End.unavailable("",
                "the " + session.ends().transport() + " transport's request/response server does not read TCP_INFO")));
        LatencyEnd.sendResult(c, result, server.failure(), stopped);
        LOG.info("session {}: {} done, {} accepts, {} served", session.peer(), spec.testName(), server.accepts(),
                server.served());
    }

    /** @return the stopped server's counts, as {@link ServedCounts} names them */
    private static Map<String, Long> counts(RrServerEnd server) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put(ServedCounts.ACCEPTS, server.accepts());
        counts.put(ServedCounts.SERVED, server.served());
        return counts;
    }
}
