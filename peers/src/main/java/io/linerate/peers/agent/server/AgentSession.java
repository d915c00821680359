package io.linerate.peers.agent.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.Failures;
import io.linerate.core.TransferException;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.Hmac;
import io.linerate.peers.agent.internal.wire.HostClock;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.Socket;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One client of an {@link Agent}: the challenge and response when a secret is in use, then one
 * request (a stream, a ping-pong, a request/response or a raw-frame run), the agent's end of it
 * ({@link AgentStreams}, {@link AgentEcho}, {@link AgentRr}, {@link AgentRaw}), and its counters sent back. Runs on a thread of its
 * own; everything it opened is closed when it ends.
 */
final class AgentSession {
    private static final Logger LOG = LoggerFactory.getLogger(AgentSession.class);
    /** The reason a session gives its client when the agent stops under it. */
    static final String STOPPING = "the agent is stopping (SIGTERM, SIGINT or close) and ended the run early";

    private final AgentConfig config;
    private final PeerEnds ends;
    private final Socket socket;
    private final Consumer<AgentSession> onEnd;
    private final Supplier<String> admit;
    private volatile boolean admitted;
    private volatile boolean handshaking = true;
    /** Whether the client sent a whole control message (its answer to the challenge) during the handshake. */
    private volatile boolean spoke;
    /** The session's place in its agent's accept order, from 1: a lower one was accepted earlier. */
    private final long order;
    private final Thread thread;
    private final String peer;
    private volatile Runnable onAbort;
    private volatile AutoCloseable data;
    private volatile boolean aborted;
    private volatile long deadlineMillis;
    private final io.linerate.peers.server.ServedTestListener listener;

    /**
     * @param ends the ends the session runs its data path on
     * @param admit counts the session against the agent's limit once its handshake is over; returns why
     *     it is refused, or null
     * @param onEnd run when the session ends
     * @param listener receives what the session's stream, ping-pong or request/response reports
     * @param order the session's place in its agent's accept order, from 1; the number its test is reported by
     */
    AgentSession(AgentConfig config, PeerEnds ends, Socket socket, Supplier<String> admit, Consumer<AgentSession> onEnd,
                 io.linerate.peers.server.ServedTestListener listener, long order) {
        this.config = config;
        this.ends = ends;
        this.listener = listener;
        this.admit = admit;
        this.socket = socket;
        this.onEnd = onEnd;
        this.peer = String.valueOf(socket.getRemoteSocketAddress());
        this.order = order;
        this.thread = new Thread(this::run, "linerate-agent-session-" + order);
        this.thread.setDaemon(true);
        this.deadlineMillis = config.handshakeTimeout().toMillis() * 4;
    }

    void start() {
        thread.start();
    }

    /** Ends the session soon: its stream stops, and its client is told why; a connection still in its handshake is closed. */
    void abort() {
        aborted = true;
        closeIfHandshaking();
        Runnable r = onAbort;
        if (r != null) {
            r.run();
        }
    }

    /** @return the session's place in the agent's accept order: a lower one was accepted earlier */
    long order() {
        return order;
    }

    /** @return whether the connection is open and still in its handshake: it holds one of the agent's handshake slots */
    synchronized boolean inHandshake() {
        return handshaking && !socket.isClosed();
    }

    /** @return whether the connection is in its handshake and has not sent one whole control message yet */
    synchronized boolean silent() {
        return inHandshake() && !spoke;
    }

    /**
     * Closes a connection that is still {@link #silent()}, to make room for one that may speak.
     *
     * @param waiting how many connections were in their handshake, for the log
     * @return whether it was closed (false when it spoke or ended meanwhile)
     */
    synchronized boolean evictIfSilent(int waiting) {
        if (!silent()) {
            return false;
        }
        LOG.warn("session {}: closed in its handshake, having sent no control message while {} connections held every "
                + "handshake slot: the oldest silent one makes room for a new one", peer, waiting);
        closeIfHandshaking();
        return true;
    }

    /** @return whether the session finished its handshake and counts against the agent's limit */
    boolean admitted() {
        return admitted;
    }

    /** @return whether the agent asked this session to end */
    boolean aborted() {
        return aborted;
    }

    /** @param r run (on the stopping thread) when the agent asks the session to end, at once if it already has */
    void onAbort(Runnable r) {
        onAbort = r;
        if (aborted) {
            r.run();
        }
    }

    /** @param a closed when the session ends, with the control connection */
    void holds(AutoCloseable a) {
        data = a;
    }

    /** @param millis the longest the session may still run before {@link #join()} closes its socket */
    void deadline(long millis) {
        deadlineMillis = millis;
    }

    /** Ends a wait on the control connection at once (its input is shut down); sends stay possible. */
    void wakeControlReader() {
        try {
            socket.shutdownInput();
        } catch (IOException e) {
            LOG.debug("session {}: shutting the control input down reported {}", peer, e.getMessage());
        }
    }

    String peer() {
        return peer;
    }

    AgentConfig config() {
        return config;
    }

    /** @return the ends the session's streams, echo end and request/response server run on */
    PeerEnds ends() {
        return ends;
    }

    io.linerate.peers.server.ServedTestListener listener() {
        return listener;
    }

    Socket socket() {
        return socket;
    }

    /** Waits for the session's thread, bounded by its deadline; closes its socket if it is still running. */
    void join() {
        try {
            thread.join(Math.max(1, deadlineMillis));
            if (thread.isAlive()) {
                socket.close();
                thread.join(config.handshakeTimeout().toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException e) {
            LOG.debug("closing session {} reported {}", peer, e.getMessage());
        }
    }

    private void run() {
        Control c = null;
        try {
            long handshake = Math.max(1, config.handshakeTimeout().toMillis());
            c = new Control(socket, (int) handshake);
            // one deadline for the whole handshake, not one per read: a client that sends a byte now and
            // then cannot hold the connection past it
            CompletableFuture.delayedExecutor(handshake, TimeUnit.MILLISECONDS).execute(this::endSlowHandshake);
            if (!authenticate(c)) {
                return;
            }
            JsonNode req = c.receive();
            synchronized (this) {
                if (socket.isClosed()) {
                    return;
                }
                handshaking = false;
            }
            String busy = admit.get();
            if (busy != null) {
                refuse(c, busy);
                return;
            }
            admitted = true;
            String type = req.get("type").asText();
            switch (type) {
                case "stream" -> AgentStreams.serve(this, c, req);
                case "pingpong" -> AgentEcho.serve(this, c, req);
                case "rr" -> AgentRr.serve(this, c, req);
                case "raw" -> AgentRaw.serve(this, c, req);
                default -> refuse(c, "request '" + type + "' is unknown; allowed: stream, pingpong, rr, raw");
            }
        } catch (TransferException | IOException | RuntimeException e) {
            String reason = aborted ? STOPPING + ": " + Failures.describe(e) : Failures.describe(e);
            LOG.warn("session {} ended: {}", peer, reason);
            if (c != null && !socket.isClosed()) {
                try {
                    c.send(Control.message("error").put("reason", String.valueOf(reason)));
                } catch (IOException ignored) {
                    // the client is gone; nothing left to tell
                }
            }
        } finally {
            close(data);
            close(c == null ? socket : c);
            onEnd.accept(this);
        }
    }

    private synchronized void endSlowHandshake() {
        if (handshaking && !socket.isClosed()) {
            LOG.warn("session {}: the handshake took longer than {} ms; closed", peer, config.handshakeTimeout().toMillis());
            closeIfHandshaking();
        }
    }

    /** Closes the connection while it is in its handshake: there is no run to stop yet, nor counts to send. */
    private synchronized void closeIfHandshaking() {
        if (handshaking && !socket.isClosed()) {
            try {
                socket.close();
            } catch (IOException e) {
                LOG.debug("closing session {} reported {}", peer, e.getMessage());
            }
        }
    }

    /** @return the family of the control connection, when it is the spec's; else refuses and returns null */
    AddressFamily sameFamily(Control c, AddressFamily asked) {
        AddressFamily family = socket.getLocalAddress() instanceof Inet6Address ? AddressFamily.IPV6 : AddressFamily.IPV4;
        if (family != asked) {
            refuse(c, "the spec asks for IPv" + asked.label() + " but the control connection is IPv"
                    + family.label() + "; connect to the agent's IPv" + asked.label() + " address");
            return null;
        }
        return family;
    }

    private boolean authenticate(Control c) throws IOException {
        var hello = Control.message("hello").put("version", 1);
        // lets the client say whether the two ends read one clock (HostClock)
        HostClock.identity().ifPresent(id -> hello.put("clock", id));
        if (config.secret().isEmpty()) {
            c.send(hello);
            return true;
        }
        byte[] nonce = Hmac.nonce();
        c.send(hello.put("nonce", Base64.getEncoder().encodeToString(nonce)));
        // the answer is the first thing read: nothing else from this client is parsed before it is checked
        JsonNode auth = c.expect("auth");
        synchronized (this) {
            if (socket.isClosed()) {
                return false;
            }
            spoke = true;
        }
        byte[] answer;
        try {
            answer = Base64.getDecoder().decode(auth.path("hmac").asText(""));
        } catch (IllegalArgumentException e) {
            answer = null;
        }
        if (!Hmac.verify(config.secret().get(), nonce, answer)) {
            refuse(c, "authentication failed: the answer to the challenge does not match this agent's secret");
            return false;
        }
        // said before anything else is read, so that a client learns a refusal before it sends its spec
        c.send(Control.message("authenticated"));
        return true;
    }

    void refuse(Control c, String reason) {
        LOG.warn("session {} refused: {}", peer, reason);
        try {
            c.send(Control.message("refused").put("reason", reason));
        } catch (IOException e) {
            LOG.debug("telling {} failed: {}", peer, e.getMessage());
        }
    }

    private void close(AutoCloseable a) {
        if (a == null) {
            return;
        }
        try {
            a.close();
        } catch (Exception e) {
            LOG.debug("closing for session {} reported {}", peer, e.getMessage());
        }
    }
}
