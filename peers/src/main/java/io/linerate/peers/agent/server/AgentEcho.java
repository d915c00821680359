package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.nio.spi.EchoServer;
import io.linerate.nio.spi.Endpoint;
import io.linerate.nio.spi.Sockets;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.agent.internal.wire.SpecJson;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.DatagramChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of a ping-pong: the echo server of an in-JVM ping-pong
 * ({@link EchoServer}) on a TCP connection the client opens or a connected UDP socket, until the
 * client says {@code done}; then it sends its own counts: {@code echoes} (reads answered: one per
 * datagram, one per arrival of a TCP stream) and {@code bytes} echoed. When the agent stops first,
 * the counts so far go back with {@code "stopped"} naming why.
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
        long timeoutMillis = spec.timeout().toMillis();
        long handshake = session.config().handshakeTimeout().toMillis();
        long waitMillis = runNanos / 1_000_000L + 2 * timeoutMillis + handshake;
        session.deadline(waitMillis + handshake);
        Socket control = session.socket();
        InetAddress local = control.getLocalAddress();
        List<AutoCloseable> opened = new ArrayList<>();
        session.holds(() -> closeAll(opened));
        // a stopping agent wakes this thread's wait for "done", which then sends the counts so far
        session.onAbort(session::wakeControlReader);
        Endpoint end;
        boolean tcp = spec.protocol() == PingPongProtocol.TCP;
        if (tcp) {
            ServerSocketChannel l = ServerSocketChannel.open(Sockets.protocolFamily(spec.family()));
            opened.add(l);
            Sockets.apply(l, 0, spec.receiveBufferBytes(), false, 0, false, false);
            l.bind(new InetSocketAddress(local, 0), 1);
            c.send(Control.message("ready").put("port", l.socket().getLocalPort()));
            l.socket().setSoTimeout((int) Math.max(1, handshake));
            SocketChannel s;
            try {
                s = l.socket().accept().getChannel();
            } catch (SocketTimeoutException e) {
                throw new IOException("the client did not connect its ping-pong socket within " + handshake + " ms");
            }
            opened.add(s);
            l.close();
            if (!((InetSocketAddress) s.getRemoteAddress()).getAddress().equals(control.getInetAddress())) {
                throw new IOException("the ping-pong connection came from " + s.getRemoteAddress()
                        + ", not from the client at " + control.getInetAddress().getHostAddress());
            }
            Sockets.apply(s, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), true,
                    spec.noDelay());
            end = Endpoint.open("linerate-agent-echo", s, s, false, spec.serverMuxer(), spec.idleOf(spec.serverMuxer()),
                    spec.timeout().toNanos());
        } else {
            int clientPort = req.path("udp_port").asInt(0);
            if (clientPort < 1 || clientPort > 65535) {
                session.refuse(c, "a UDP ping-pong needs the client's \"udp_port\", 1..65535");
                return;
            }
            DatagramChannel d = DatagramChannel.open(Sockets.protocolFamily(spec.family()));
            opened.add(d);
            Sockets.apply(d, spec.sendBufferBytes(), spec.receiveBufferBytes(), true, spec.trafficClass(), false, false);
            d.bind(new InetSocketAddress(local, 0));
            d.connect(new InetSocketAddress(control.getInetAddress(), clientPort));
            end = Endpoint.open("linerate-agent-echo", d, d, true, spec.serverMuxer(), spec.idleOf(spec.serverMuxer()),
                    spec.timeout().toNanos());
            c.send(Control.message("ready").put("port", d.socket().getLocalPort()));
        }
        opened.add(0, end);
        EchoServer echo = new EchoServer(end, spec.maxSize(), spec.timeout().toNanos(), -1);
        opened.add(0, echo);
        echo.start();
        LOG.info("session {}: {} ping-pong echo, up to {} bytes", session.peer(), spec.protocol().label(), spec.maxSize());
        String stopped = LatencyEnd.awaitDone(c, session, waitMillis);
        echo.close();
        LatencyEnd.sendResult(c, Control.message("result").put("echoes", echo.answered()).put("bytes", echo.answeredBytes()),
                echo.failure(), stopped);
        LOG.info("session {}: ping-pong done, {} echoes, {} bytes", session.peer(), echo.answered(), echo.answeredBytes());
    }

    private static void closeAll(List<AutoCloseable> opened) {
        for (AutoCloseable a : List.copyOf(opened)) {
            try {
                a.close();
            } catch (Exception ignored) {
                // closing releases the descriptor even when it reports an error
            }
        }
    }
}
