package io.linerate.peers.agent.server;

import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.internal.PeerEndsLookup;
import io.linerate.peers.server.PeerServer;
import io.linerate.peers.server.ServedTestListener;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The peer agent ({@code linerate serve}): listens on a TCP control port and runs the far end of
 * each client's stream, ping-pong (the echo end) or request/response run (the server) in a session
 * of its own, up to {@link AgentLimits#maxSessions()} at once. At most {@link #maxHandshakes()}
 * connections are in their handshake at once; when all are, a new connection takes the place of the
 * oldest one that has not sent a whole control message yet, and is refused only when every one has. A
 * session that fails (a wrong answer to the challenge, garbage, an oversized message, a spec over
 * the limits, a client that disappears) ends alone, is logged, and the agent serves on. Each
 * session's sockets and threads are released when it ends, and at the latest at its deadline:
 * warm-up + duration + twice the spec's I/O timeout (one for the stream, one for its teardown). A
 * connection from outside {@link AgentConfig#allowFrom()} is closed before anything is read.
 */
public final class Agent implements PeerServer {
    private static final Logger LOG = LoggerFactory.getLogger(Agent.class);
    private final AgentConfig config;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<AgentSession> sessions = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicLong served = new AtomicLong();
    /** Sessions past their handshake: the ones {@link AgentLimits#maxSessions()} bounds. */
    private final AtomicInteger admitted = new AtomicInteger();
    private final ServedTestListener listener;
    private final PeerEnds ends;

    private Agent(AgentConfig config, ServerSocket server, ServedTestListener listener, PeerEnds ends) {
        this.config = config;
        this.ends = ends;
        this.server = server;
        this.listener = listener;
        this.acceptor = new Thread(this::acceptLoop, "linerate-agent-accept");
        this.acceptor.setDaemon(true);
    }

    /**
     * Binds the control port and starts serving; nothing is told of the sessions served but the log.
     *
     * @throws IOException when the port cannot be bound; the message names address and port
     */
    public static Agent start(AgentConfig config) throws IOException {
        return start(config, ServedTestListener.NONE);
    }

    /**
     * Binds the control port and starts serving.
     *
     * @param listener receives each stream session's start, its interval lines (per stream when it
     *     runs several, at the spec's interval; warm-up ones omitted) and its summary: the window
     *     counts the agent sends its client; and each ping-pong or request/response session's start
     *     and, at its end, the agent's own counts ({@link ServedTestListener#onCounts})
     * @throws IOException when the port cannot be bound; the message names address and port
     * @throws IllegalArgumentException when the config's transport is not on the class path or offers
     *     no ends for peers; the message names those that do
     */
    public static Agent start(AgentConfig config, ServedTestListener listener) throws IOException {
        PeerEnds ends = PeerEndsLookup.named(config.transport());
        ServerSocket s = new ServerSocket();
        try {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(config.bind(), config.port()), 64);
        } catch (IOException e) {
            s.close();
            throw new IOException("cannot listen on " + config.bind().getHostAddress() + " port " + config.port()
                    + ": " + e.getMessage(), e);
        }
        Agent a = new Agent(config, s, java.util.Objects.requireNonNull(listener, "listener"), ends);
        a.acceptor.start();
        LOG.info("agent listening on {} port {}{}", config.bind().getHostAddress(), a.address().getPort(),
                config.secret().isPresent() ? " (shared secret required)" : "");
        return a;
    }

    /** @return the control port's address, with the port the kernel chose for port 0 */
    @Override
    public InetSocketAddress address() {
        return new InetSocketAddress(server.getInetAddress(), server.getLocalPort());
    }

    /** @return sessions running now past their handshake: those {@link AgentLimits#maxSessions()} bounds */
    @Override
    public int activeSessions() {
        return admitted.get();
    }

    /** @return connections still open in their handshake (hello, challenge, request), not yet counted as sessions */
    public int connectionsInHandshake() {
        int n = 0;
        for (AgentSession s : sessions) {
            if (s.inHandshake()) {
                n++;
            }
        }
        return n;
    }

    /** @return the most connections the agent holds in their handshake at once: 4 x max sessions */
    public int maxHandshakes() {
        return 4 * config.limits().maxSessions();
    }

    /**
     * Counts a session that finished its handshake against {@link AgentLimits#maxSessions()}.
     *
     * @return why it is refused (all sessions busy), or null when it is admitted
     */
    String admit() {
        while (true) {
            int n = admitted.get();
            if (n >= config.limits().maxSessions()) {
                return "the agent serves at most " + config.limits().maxSessions()
                        + " sessions at once (--max-sessions) and all are busy; try again later";
            }
            if (admitted.compareAndSet(n, n + 1)) {
                return null;
            }
        }
    }

    private void ended(AgentSession s) {
        if (sessions.remove(s) && s.admitted()) {
            admitted.decrementAndGet();
        }
    }

    /** @return sessions started since the agent started (refused connections not counted) */
    public long sessionsStarted() {
        return served.get();
    }

    private void acceptLoop() {
        while (!closed.get()) {
            Socket s;
            try {
                s = server.accept();
            } catch (SocketException e) {
                if (!closed.get()) {
                    LOG.error("control port failed: {}", e.getMessage());
                }
                return;
            } catch (IOException e) {
                LOG.warn("accept failed: {}", e.getMessage());
                continue;
            }
            if (!config.allowFrom().allows(s.getInetAddress())) {
                LOG.warn("refused {}: not in --allow-from {}; closed before reading", s.getRemoteSocketAddress(),
                        config.allowFrom());
                closeQuietly(s);
                continue;
            }
            int waiting = connectionsInHandshake();
            if (waiting >= maxHandshakes() && !evictOldestSilent(waiting)) {
                refuseBusy(s);
                continue;
            }
            AgentSession session = new AgentSession(config, ends, s, this::admit, this::ended, listener, served.incrementAndGet());
            sessions.add(session);
            if (closed.get()) {
                session.abort();
            }
            session.start();
        }
    }

    /**
     * Makes room for a new connection when every handshake slot is held: closes the oldest
     * connection that has not sent one whole control message yet (iperf3 #788: connections that
     * say nothing must not lock out a client that speaks). A client that answered the challenge
     * keeps its slot.
     *
     * @return whether a connection was closed
     */
    private boolean evictOldestSilent(int waiting) {
        while (true) {
            AgentSession oldest = null;
            for (AgentSession s : sessions) {
                if (s.silent() && (oldest == null || s.order() < oldest.order())) {
                    oldest = s;
                }
            }
            if (oldest == null) {
                return false;
            }
            if (oldest.evictIfSilent(waiting)) {
                return true;
            }
        }
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException e) {
            LOG.debug("closing {} reported {}", s.getRemoteSocketAddress(), e.getMessage());
        }
    }

    private void refuseBusy(Socket s) {
        String reason = "the agent holds at most " + maxHandshakes() + " connections in their handshake at once "
                + "(4 x --max-sessions) and all are taken by clients that answered the challenge; try again later";
        LOG.warn("refused {}: {}", s.getRemoteSocketAddress(), reason);
        try (Control c = new Control(s, (int) Math.max(1, config.handshakeTimeout().toMillis()))) {
            c.send(Control.message("refused").put("reason", reason));
        } catch (IOException e) {
            LOG.debug("refusing {} failed: {}", s.getRemoteSocketAddress(), e.getMessage());
        }
    }

    /**
     * Stops serving: closes the control port, stops every session (each ends its stream and tells
     * its client why) and waits for their threads, bounded by each session's deadline.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            server.close();
        } catch (IOException e) {
            LOG.debug("closing the control port reported {}", e.getMessage());
        }
        try {
            acceptor.join(config.handshakeTimeout().toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (AgentSession s : sessions) {
            s.abort();
        }
        for (AgentSession s : sessions) {
            s.join();
        }
        LOG.info("agent stopped after {} sessions", served.get());
    }
}
