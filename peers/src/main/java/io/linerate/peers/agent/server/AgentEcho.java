package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.spi.cpu.ThreadAffinity;
import io.linerate.core.spi.ends.EchoEnd;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.agent.internal.wire.SpecJson;
import io.linerate.peers.server.ServedCounts;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of a ping-pong: the echo server of an in-JVM ping-pong
 * ({@link EchoEnd}) on a TCP connection the client opens or a connected UDP socket, until the
 * client says {@code done}; then it sends its own counts: {@code echoes} (reads answered: one per
 * datagram, one per arrival of a TCP stream) and {@code bytes} echoed, and for TCP its socket's
 * {@code TCP_INFO} over the echo's life ({@link EndJson#latencyTcp}: {@code tcp_info}, or
 * {@code tcp_info_unavailable} saying why). When the agent stops first,
 * the counts so far go back with {@code "stopped"} naming why. The session's listener hears its
 * start and, at its end, the same counts ({@link LatencyServed}).
 */
final class AgentEcho {
    private static final Logger LOG = LoggerFactory.getLogger(AgentEcho.class);

    private AgentEcho() {}

    static void serve(AgentSession session, Control c, JsonNode req) throws IOException {
        PingPongSpec spec;
        long runNanos;
        try {
            spec = LatencySpecJson.pingPong(req.get("spec"));
            runNanos = SpecJson.integer(req.get("spec"), "run_ns");
        } catch (IllegalArgumentException e) {
            session.refuse(c, "spec refused: " + e.getMessage());
            return;
        }
        Optional<String> over = session.config().limits().refusal("ping-pong", Duration.ofNanos(runNanos), spec.maxSize());
        if (over.isPresent()) {
            session.refuse(c, over.get());
            return;
        }
        if (session.sameFamily(c, spec.family()) == null) {
            return;
        }
        Optional<String> pin = spec.affinity().serverCpu().isPresent()
                ? ThreadAffinity.refusal(spec.affinity().serverCpu().getAsInt()) : Optional.empty();
        if (pin.isPresent()) {
            session.refuse(c, "affinity refused: the echo thread cannot be pinned here: " + pin.get());
            return;
        }
        long timeoutMillis = spec.timeout().toMillis();
        long handshake = session.config().handshakeTimeout().toMillis();
        long waitMillis = runNanos / 1_000_000L + 2 * timeoutMillis + handshake;
        session.deadline(waitMillis + handshake);
        Socket control = session.socket();
        InetAddress local = control.getLocalAddress();
        boolean tcp = spec.protocol() == PingPongProtocol.TCP;
        int clientPort = req.path("udp_port").asInt(0);
        if (!tcp && (clientPort < 1 || clientPort > 65535)) {
            session.refuse(c, "a UDP ping-pong needs the client's \"udp_port\", 1..65535");
            return;
        }
        EchoEnd echo = session.ends().echo(spec, local);
        session.holds(echo);
        // a stopping agent wakes this thread's wait for "done", which then sends the counts so far
        session.onAbort(session::wakeControlReader);
        if (tcp) {
            c.send(Control.message("ready").put("port", echo.localPort()));
            echo.accept(control.getInetAddress(), handshake);
        } else {
            echo.connectUdp(new InetSocketAddress(control.getInetAddress(), clientPort));
            c.send(Control.message("ready").put("port", echo.localPort()));
        }
        echo.start(spec.maxSize());
        LOG.info("session {}: {} ping-pong echo, up to {} bytes", session.peer(), spec.protocol().label(), spec.maxSize());
        LatencyServed served = LatencyServed.started(session, "linerate " + spec.protocol().label() + " ping-pong, up to "
                + spec.maxSize() + " bytes");
        String stopped;
        try {
            stopped = LatencyEnd.awaitDone(c, session, waitMillis);
        } catch (IOException e) {
            echo.close();
            served.lost(counts(echo), e);
            throw e;
        }
        echo.close();
        served.ended(counts(echo), echo.failure(), stopped);
        ObjectNode result = Control.message("result").put("echoes", echo.answered()).put("bytes", echo.answeredBytes());
        echo.cpus().ifPresent(cpus -> result.put("server_cpus", cpus));
        if (tcp) {
            EndJson.latencyTcp(result, echo.tcpInfo().orElseGet(() -> LatencyTcpInfo.End.unavailable("",
                    "the " + session.ends().transport() + " transport's echo end does not read TCP_INFO")));
        }
        LatencyEnd.sendResult(c, result, echo.failure(), stopped);
        LOG.info("session {}: ping-pong done, {} echoes, {} bytes", session.peer(), echo.answered(), echo.answeredBytes());
    }

    /** @return the closed end's counts, as {@link ServedCounts} names them */
    private static Map<String, Long> counts(EchoEnd echo) {
        Map<String, Long> counts = new LinkedHashMap<>();
        counts.put(ServedCounts.ECHOES, echo.answered());
        counts.put(ServedCounts.BYTES_ECHOED, echo.answeredBytes());
        return counts;
    }
}
