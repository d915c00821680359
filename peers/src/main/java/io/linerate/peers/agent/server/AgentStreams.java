package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.TransferException;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.ends.StreamListener;
import io.linerate.core.spi.engine.StreamEnd;
import io.linerate.peers.agent.internal.wire.AgentGo;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.ControlBeats;
import io.linerate.peers.agent.internal.wire.ParallelEnds;
import io.linerate.peers.agent.internal.wire.SpecJson;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's end of a stream request: one session, {@code streams} data sockets (1 unless the
 * client runs {@code --parallel}), each stream's end on a thread of its own, all started together.
 * The session's thread watches the control connection meanwhile: a UDP sender's {@code done}
 * (its window datagram count per stream), or the client gone, which ends every stream. A client
 * that asks for beats ({@link ControlBeats}) gets them, and a path on which nothing from it arrived
 * for the spec's I/O timeout ends every stream too: the session fails as the path went silent. A
 * client that asks for {@code go} ({@link Control#GO}) gets it confirmed in the
 * {@code ready}. In reverse the agent then starts sending only when the client's {@code go} came
 * (its receivers read); forward, the agent says {@code go} once its own receivers read, and the
 * client sends only then. Each wait is bounded by the I/O timeout.
 *
 * <p>A client that asks for it ({@code "start": "message"} in its request) says {@code start} on the
 * control connection when it runs its ends; the agent's ends start then, not when the session
 * opened, and the wait is bounded by the agent's handshake timeout. Without it, they start as soon
 * as the data sockets are connected.
 *
 * <p>Stream {@code i} (from 0) carries stream id {@code spec.streamId() + i} in its datagram
 * headers, on both ends, and its share of the spec's rate, which is the whole session's (the
 * agent's rate limit applies to that whole). The {@code result} holds every stream's counters in {@code ends} (in
 * order) and, for a client that knows one stream only, the first one's in {@code end}
 * ({@link StreamResultMessage}: a sending TCP end's {@code TCP_INFO} too, at the end and at each interval).
 */
final class AgentStreams {
    private static final Logger LOG = LoggerFactory.getLogger(AgentStreams.class);
    private static final long WATCH_NANOS = 20_000_000L;

    private AgentStreams() {}

    /** A stream request the agent accepted: the spec, the number of streams and whether the agent sends. */
    private record Accepted(TransferSpec spec, int streams, boolean sending, String direction) {}

    static void serve(AgentSession session, Control c, JsonNode req) throws IOException, TransferException {
        Accepted a = accept(session, c, req);
        if (a == null) {
            return;
        }
        TransferSpec spec = a.spec();
        int n = a.streams();
        boolean sending = a.sending();
        long handshake = session.config().handshakeTimeout().toMillis();
        boolean awaitStart = req.path("start").asText("").equals("message");
        session.deadline(spec.warmup().toMillis() + spec.bound().amount() / 1_000_000L
                + 2 * spec.ioTimeout().toMillis() + (awaitStart ? 2 : 1) * handshake);
        List<AutoCloseable> opened = new ArrayList<>();
        session.holds(() -> closeAll(opened));
        boolean beating = req.path(ControlBeats.FIELD).asLong(0) > 0;
        boolean goAsked = req.path(Control.GO).asBoolean(false);
        boolean go = sending && goAsked;
        List<StreamChannel> channels = connect(session, c, req, spec, n, sending, opened, beating, goAsked);
        if (channels == null) {
            return;
        }
        if (beating) {
            opened.add(ControlBeats.start(c, ControlBeats.intervalMillis(spec.ioTimeout().toMillis())));
        }
        LOG.info("session {}: {} {} stream x{}, {}", session.peer(), a.direction(), spec.protocol().label(), n, spec);
        AgentServed served = new AgentServed(session.listener(), session.order(), spec, n, sending);
        List<StreamEnd> ends = ends(spec, channels, sending);
        long[] peerSent = new long[n];
        java.util.Arrays.fill(peerSent, -1);
        if (awaitStart) {
            awaitStart(session, c, handshake);
        }
        if (go) {
            // after start: the client says go once its receivers read, after it said start
            AgentGo.await(c, "the client", spec.ioTimeout().toMillis());
        }
        session.onAbort(() -> ends.forEach(StreamEnd::abort));
        c.timeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, spec.ioTimeout().toMillis())));
        served.started((InetSocketAddress) c.socket().getRemoteSocketAddress(), spec);
        ParallelEnds run = ParallelEnds.start(ends, i -> (java.util.function.LongSupplier) () -> sentOf(peerSent, i),
                served::stream, "linerate-agent-stream-");
        if (goAsked && !sending) {
            AgentGo.sayOnceReading(c, ends, spec.ioTimeout().toMillis());
        }
        // the watch reads every few ms, so silence is judged that much late at most
        Ended ended = watch(session, c, run, peerSent, beating ? spec.ioTimeout().toNanos() + WATCH_NANOS : Long.MAX_VALUE);
        TransferException failure = run.failure();
        if (failure != null) {
            served.cutShort(run.bytesSoFar(), run.messagesSoFar(), why(session, ended, failure));
            stopped(session, c, run, failure, ended, spec, sending);
            return;
        }
        c.send(StreamResultMessage.of(spec, run.counters(), channels));
        served.done(run.counters(), sentOf(peerSent));
        LOG.info("session {}: done, {} bytes {}", session.peer(), run.bytesSoFar(), sending ? "sent" : "received");
    }

    /** @return one end per channel, stream {@code i} with its share of the spec ({@link ParallelEnds#streamSpec}) */
    private static List<StreamEnd> ends(TransferSpec spec, List<StreamChannel> channels, boolean sending) {
        int n = channels.size();
        List<StreamEnd> ends = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            TransferSpec s = ParallelEnds.streamSpec(spec, i, n);
            ends.add(sending ? StreamEnd.sender(s, Clock.system(), channels.get(i).sendLoop(),
                    channels.get(i).tcpProbe().orElse(null))
                    : StreamEnd.receiver(s, Clock.system(), channels.get(i).receiveLoop()));
        }
        return ends;
    }

    /**
     * Reads and checks a stream request: its spec, within the agent's limits and the calls its ends
     * can make ({@link io.linerate.core.spi.ends.PeerEnds#ioRefusal}), its number of streams and its
     * direction, in the client's address family. Refuses (and returns null) what does not fit.
     */
    private static Accepted accept(AgentSession session, Control c, JsonNode req) throws IOException {
        TransferSpec spec;
        try {
            spec = SpecJson.read(req.get("spec"));
        } catch (IllegalArgumentException e) {
            session.refuse(c, "spec refused: " + e.getMessage());
            return null;
        }
        AgentLimits limits = session.config().limits();
        Optional<String> over = limits.refusal(spec);
        JsonNode streamsField = req.path("streams");
        if (over.isEmpty() && !streamsField.isMissingNode() && !streamsField.canConvertToInt()) {
            over = Optional.of("\"streams\" " + streamsField + " is not a 32-bit integer");
        }
        int n = streamsField.asInt(1);
        over = over.or(() -> limits.refusal(n));
        if (over.isPresent()) {
            session.refuse(c, over.get());
            return null;
        }
        String direction = req.path("direction").asText("");
        if (!direction.equals("forward") && !direction.equals("reverse")) {
            session.refuse(c, "direction '" + direction + "' is unknown; allowed: forward, reverse");
            return null;
        }
        boolean sending = direction.equals("reverse");
        Optional<String> io = session.ends().ioRefusal(spec, sending);
        if (io.isPresent()) {
            session.refuse(c, io.get() + "; this agent runs its ends on the " + session.ends().transport()
                    + " transport: start it with serve --transport native to run it");
            return null;
        }
        if (session.sameFamily(c, spec.family()) == null) {
            return null;
        }
        return new Accepted(spec, n, sending, direction);
    }

    /**
     * The ends failed: because the client went away or fell silent (an error naming the bytes so
     * far), by themselves (their failure), or because the agent is stopping, when the client gets
     * a {@code stopped} message with the counts so far.
     */
    private static void stopped(AgentSession session, Control c, ParallelEnds run, TransferException failure, Ended ended,
                                TransferSpec spec, boolean sending) throws IOException, TransferException {
        if (ended == Ended.GONE) {
            throw new IOException("the client went away mid-stream (its control connection closed) after "
                    + run.bytesSoFar() + " bytes", failure);
        }
        if (ended == Ended.SILENT) {
            throw new IOException("nothing from the client for the I/O timeout of " + spec.ioTimeout().toMillis()
                    + " ms, not even a beat: the path is silent; ended after " + run.bytesSoFar() + " bytes", failure);
        }
        if (!session.aborted()) {
            throw failure;
        }
        // the client gets the counts so far and why, not only an error; a TCP receiver counts bytes,
        // not the sender's writes, so its "messages" is left out: unknown, not 0
        var stoppedMessage = Control.message("stopped").put("reason", AgentSession.STOPPING).put("sender", sending)
                .put("bytes", run.bytesSoFar());
        if (sending || spec.protocol() == Protocol.UDP) {
            stoppedMessage.put("messages", run.messagesSoFar());
        }
        c.send(stoppedMessage);
        LOG.info("session {}: stopped by the agent after {} bytes", session.peer(), run.bytesSoFar());
    }

    /**
     * Waits for the client's {@code start}: its ends run from then on, and so do the agent's, so
     * that a receiver's window starts when the data does, not when the session opened (a client
     * may run its transfer a while after opening it).
     *
     * @throws IOException when no {@code start} comes within the agent's handshake timeout, or
     *     the client sent something else or left; a stopping agent ends the wait at once
     */
    private static void awaitStart(AgentSession session, Control c, long handshakeMillis) throws IOException {
        session.onAbort(session::wakeControlReader);
        long deadline = System.nanoTime() + handshakeMillis * 1_000_000L;
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000L;
            String type;
            try {
                if (left <= 0) {
                    throw new SocketTimeoutException();
                }
                c.timeout((int) Math.min(Integer.MAX_VALUE, left));
                type = c.receive().get("type").asText();
            } catch (SocketTimeoutException e) {
                throw new SocketTimeoutException("the client did not start its run within " + handshakeMillis
                        + " ms of opening it (the agent's handshake timeout)");
            }
            if (type.equals("start")) {
                return;
            }
            // a client that beats may beat while it waits to run
            if (!type.equals(ControlBeats.TYPE)) {
                throw new IOException("expected the client's \"start\", got \"" + type + "\"");
            }
        }
    }

    /** What the client's side did to the streams, as {@link #watch} saw it. */
    private enum Ended { NOT, GONE, SILENT }

    /**
     * Watches the control connection until every end is over: a UDP sender's {@code done}, the client's
 * {@code stop} (it was interrupted: every end's window closes then, {@link StreamEnd#interrupt()}), the client
     * gone (its connection closed or reset) or a silence past {@code silenceNanos} (no message, not
     * even a beat), either of which aborts every end.
     *
     * @return whether, and why, the ends were aborted
     */
    private static Ended watch(AgentSession session, Control c, ParallelEnds run, long[] peerSent, long silenceNanos) {
        Ended ended = Ended.NOT;
        long heard = System.nanoTime();
        while (!run.done()) {
            // a client that went away (killed, its host gone) closed or reset its control connection: that
            // ends every stream now, not at the deadline (a UDP receiver sees nothing else)
            try {
                JsonNode m;
                while ((m = c.poll()) != null) {
                    heard = System.nanoTime();
                    String type = m.get("type").asText();
                    if (type.equals("done")) {
                        readSent(m, peerSent);
                    } else if (type.equals(Control.STOP)) {
                        // the client was interrupted: every end closes its window now and the result says so
                        run.interruptAll();
                    }
                }
                if (ended == Ended.NOT && c.peerGone()) {
                    ended = Ended.GONE;
                    run.abortAll();
                } else if (ended == Ended.NOT && System.nanoTime() - heard > silenceNanos) {
                    // a black-holed path: a UDP sender here would send into it to the end of its window
                    ended = Ended.SILENT;
                    run.abortAll();
                }
            } catch (IOException ex) {
                LOG.warn("session {}: control connection failed during the stream: {}", session.peer(), ex.getMessage());
                ended = Ended.GONE;
                run.abortAll();
            }
            LockSupport.parkNanos(WATCH_NANOS);
        }
        return ended;
    }

    /** @return the data channels, connected; null when the request was refused (the client was told) */
    private static List<StreamChannel> connect(AgentSession session, Control c, JsonNode req, TransferSpec spec, int n,
                                             boolean sending, List<AutoCloseable> opened, boolean beating,
                                             boolean goAsked) throws IOException {
        InetAddress local = c.socket().getLocalAddress();
        InetAddress client = c.socket().getInetAddress();
        List<StreamChannel> channels = new ArrayList<>();
        var ready = Control.message("ready");
        if (beating) {
            ready.put(ControlBeats.FIELD, ControlBeats.intervalMillis(spec.ioTimeout().toMillis()));
        }
        if (goAsked) {
            ready.put(Control.GO, true);
        }
        ArrayNode ports = ready.putArray("ports");
        if (spec.protocol() == Protocol.TCP) {
            List<StreamListener> listeners = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                StreamListener l = session.ends().listenTcp(ParallelEnds.streamSpec(spec, i, n), local, sending);
                opened.add(l);
                listeners.add(l);
                ports.add(l.port());
            }
            c.send(ready.put("port", listeners.get(0).port()));
            for (StreamListener l : listeners) {
                StreamChannel ch = l.accept(client);
                opened.add(ch);
                channels.add(ch);
            }
            return channels;
        }
        List<Integer> clientPorts = new ArrayList<>();
        JsonNode each = req.path("udp_ports");
        if (each.isArray()) {
            each.forEach(p -> clientPorts.add(p.canConvertToInt() ? p.asInt() : 0));
        } else {
            clientPorts.add(req.path("udp_port").asInt(0));
        }
        if (clientPorts.size() != n || clientPorts.stream().anyMatch(p -> p < 1 || p > 65535)) {
            session.refuse(c, "a UDP stream needs the client's \"udp_port\" (or one \"udp_ports\" entry per stream, "
                    + n + " here), each 1..65535; got " + clientPorts);
            return null;
        }
        for (int i = 0; i < n; i++) {
            StreamChannel ch = session.ends().bindUdp(ParallelEnds.streamSpec(spec, i, n), local, sending);
            opened.add(ch);
            ch.connectUdp(new InetSocketAddress(client, clientPorts.get(i)));
            channels.add(ch);
            ports.add(ch.localPort());
        }
        c.send(ready.put("port", channels.get(0).localPort()));
        return channels;
    }

    /** A UDP sender's {@code done}: {@code window_messages_each} per stream, or {@code window_messages} for one. */
    private static void readSent(JsonNode m, long[] sent) {
        JsonNode each = m.path("window_messages_each");
        synchronized (sent) {
            if (each.isArray()) {
                for (int i = 0; i < sent.length && i < each.size(); i++) {
                    sent[i] = each.get(i).asLong(-1);
                }
            } else {
                sent[0] = m.path("window_messages").asLong(-1);
            }
        }
    }

    /** @return why the streams failed, in a few words */
    private static String why(AgentSession session, Ended ended, TransferException failure) {
        return session.aborted() ? "the agent stopped" : ended == Ended.GONE ? "the client went away"
                : ended == Ended.SILENT ? "the path went silent" : String.valueOf(failure.getMessage());
    }

    /** @return a copy of every stream's {@code peerSent} */
    private static long[] sentOf(long[] sent) {
        synchronized (sent) {
            return sent.clone();
        }
    }

    private static long sentOf(long[] sent, int i) {
        synchronized (sent) {
            return sent[i];
        }
    }

    private static void closeAll(List<AutoCloseable> opened) {
        for (AutoCloseable a : opened) {
            try {
                a.close();
            } catch (Exception e) {
                LOG.debug("closing a data socket reported {}", e.getMessage());
            }
        }
    }
}
