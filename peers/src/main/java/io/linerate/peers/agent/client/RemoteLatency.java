package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AgentPeer;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Failures;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.PingPongSpec;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.LatencyTcpInfo;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.core.spi.ends.PingPongClient;
import io.linerate.core.spi.ends.RrServerSide;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.EndJson;
import io.linerate.peers.agent.internal.wire.LatencySpecJson;
import io.linerate.peers.internal.PeerEndsLookup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A ping-pong or request/response run whose far end is a peer agent ({@link io.linerate.peers.agent.server.Agent}) at the spec's
 * {@link AgentPeer} or {@link Endpoint.Remote}: the agent runs the echo end or the server, this host the client ends,
 * timed as in one JVM. {@link #run()} connects, authenticates, runs, collects the agent's counts
 * and releases everything before it returns or throws. A ping-pong gives a
 * {@link RemotePingPongResult}; request/response gives an {@link RrResult} whose server counts
 * ({@link RrResult#accepts()}, {@link RrResult#served()}) are the agent's. Over TCP, the server's
 * {@code TCP_INFO} in either result ({@link LatencyTcpInfo#server()}) is what the agent read of its
 * own end and sent back, or why it could not, or that it sent none (an agent of an earlier release). When the agent stops
 * mid-run, the error says so, with the counts of both ends so far.
 */
public final class RemoteLatency implements Measurement {
    /** The agent's echo end's {@link LatencyTcpInfo.End#source()}. */
    static final String AGENT_ECHO_SOURCE = "TCP_INFO of the agent's echo socket, read by the agent; window: the "
            + "echo's life (the agent does not see the measured parts)";
    /** The agent's request/response server's {@link LatencyTcpInfo.End#source()}. */
    static final String AGENT_RR_SOURCE = "TCP_INFO of the agent's server sockets, each read by the agent as its "
            + "client closed it; window: the connections' lives; retransmits summed, the other figures the first "
            + "connection's";
    private final MeasurementSpec spec;
    private final Clock clock;
    private final RemoteOptions options;
    private final PeerEnds ends;
    private boolean ran;

    private RemoteLatency(MeasurementSpec spec, Clock clock, RemoteOptions options, PeerEnds ends) {
        this.spec = spec;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.options = Objects.requireNonNull(options, "options");
        this.ends = Objects.requireNonNull(ends, "ends");
    }

    /**
     * As {@link #of(MeasurementSpec, Clock, RemoteOptions)}, with this host's ends on {@code ends}.
     *
     * @param ends the ends of the transport this host's client ends run on
     */
    public static RemoteLatency of(MeasurementSpec spec, Clock clock, RemoteOptions options, PeerEnds ends) {
        RemoteLatency checked = of(spec, clock, options);
        return new RemoteLatency(checked.spec, checked.clock, checked.options, ends);
    }

    /**
     * @param spec a TCP or UDP {@link PingPongSpec} or an {@link RrSpec}, whose endpoint is linerate's
     *     agent ({@link AgentPeer} or {@link Endpoint.Remote})
     * @param options the secret ({@link AgentProtocol} takes it from the {@link AgentPeer});
     *     {@link RemoteOptions#reverse()} does not apply and must be false
     * @throws IllegalArgumentException for another pattern, a loopback endpoint, a ping-pong over a
     *     protocol that does not cross hosts, a multicast ping-pong, or a reverse option
     */
    public static RemoteLatency of(MeasurementSpec spec, Clock clock, RemoteOptions options) {
        if (!(spec instanceof PingPongSpec) && !(spec instanceof RrSpec)) {
            throw new IllegalArgumentException("a remote latency run is ping-pong or request-response, not "
                    + spec.pattern().label());
        }
        if (!(spec.endpoint() instanceof Endpoint.Remote) && !(spec.endpoint() instanceof AgentPeer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not linerate's agent");
        }
        if (spec instanceof PingPongSpec p && p.protocol() != PingPongProtocol.TCP && p.protocol() != PingPongProtocol.UDP) {
            throw new IllegalArgumentException("ping-pong over " + p.protocol().label()
                    + " does not cross hosts; with a remote peer: tcp, udp");
        }
        if (spec instanceof PingPongSpec p && p.multicast().isPresent()) {
            throw new IllegalArgumentException("mcast " + p.multicast().get().group().getHostAddress() + " does not "
                    + "run with a peer: the agent's echo end does not join multicast groups; allowed: a multicast "
                    + "ping-pong with both ends in this JVM (no --peer)");
        }
        if (options.reverse()) {
            throw new IllegalArgumentException("--reverse applies to streams only");
        }
        return new RemoteLatency(spec, clock, options, PeerEndsLookup.defaults());
    }

    @Override
    public MeasurementSpec spec() {
        return spec;
    }

    @Override
    public MeasurementResult run() throws TransferException {
        if (ran) {
            throw new IllegalStateException("this " + spec.pattern().label() + " measurement has already run; open another one");
        }
        ran = true;
        Endpoint.Remote peer = spec.endpoint().remoteAddress().orElseThrow();
        long timeoutMillis = spec instanceof PingPongSpec p ? p.timeout().toMillis() : ((RrSpec) spec).timeout().toMillis();
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeoutMillis));
        InetAddress address = AgentClient.resolve(peer, spec instanceof PingPongSpec p ? p.family() : ((RrSpec) spec).family());
        RunFacts facts = RunFacts.detect(version(), spec.toString());
        try (Control c = AgentClient.connect(peer, address, timeout, options).control()) {
            return spec instanceof PingPongSpec p ? pingPong(p, c, address, timeout, facts)
                    : rr((RrSpec) spec, c, address, facts);
        } catch (IOException e) {
            throw new TransferException(spec.pattern().label() + " with the agent at " + peer + ": " + Failures.describe(e), e);
        }
    }

    private RemotePingPongResult pingPong(PingPongSpec p, Control c, InetAddress address, int timeout, RunFacts facts)
            throws IOException, TransferException {
        ObjectNode req = Control.message("pingpong");
        req.set("spec", LatencySpecJson.pingPong(p));
        InetAddress local = c.socket().getLocalAddress();
        long[] trips = new long[1];
        PingPongResultOrError outcome = new PingPongResultOrError();
        try (PingPongClient client = ends.pingPongClient(p, local)) {
            if (p.protocol() == PingPongProtocol.UDP) {
                // the agent's echo end connects its UDP socket to this one
                req.put("udp_port", client.localPort());
            }
            c.send(req);
            client.connect(new InetSocketAddress(address, port(c.expect("ready"))), timeout);
            AppliedOptions o = client.options();
            try {
                outcome.result = client.run(clock, facts, o, trips);
            } catch (TransferException failed) {
                outcome.failure = failed;
            }
            // the client's socket is closed: the agent's echo end reads no more
            sendDone(c);
            c.timeout(timeout + 1000);
            JsonNode r = c.expect("result");
            long echoes = r.path("echoes").asLong(-1);
            long bytes = r.path("bytes").asLong(-1);
            if (outcome.failure != null || r.hasNonNull("stopped")) {
                throw new TransferException(String.format(Locale.ROOT, "%s%s; this host completed %d round trips, "
                                + "the agent echoed %d times (%d bytes)",
                        r.hasNonNull("stopped") ? r.get("stopped").asText() + ": " : "",
                        outcome.failure == null ? "the sweep did not end" : outcome.failure.getMessage(),
                        trips[0], echoes, bytes), outcome.failure);
            }
            PingPongResult sweep = outcome.result;
            if (p.affinity().serverCpu().isPresent()) {
                Optional<String> cpus = r.hasNonNull("server_cpus") ? Optional.of(r.get("server_cpus").asText()) : Optional.empty();
                sweep = sweep.withServerCpus(cpus, cpus.isPresent() ? Optional.empty() : Optional.of("the agent did not report "
                        + "its echo thread's CPU set: an agent older than --affinity runs it unpinned"));
            }
            if (sweep.tcpInfo().isPresent()) {
                sweep = sweep.withTcpInfo(new LatencyTcpInfo(sweep.tcpInfo().get().client(),
                        EndJson.latencyTcp(r, AGENT_ECHO_SOURCE)));
            }
            return new RemotePingPongResult(sweep, echoes, bytes);
        } catch (IOException e) {
            if (outcome.failure != null) {
                // the control connection failed after the sweep did: the sweep's reason comes first
                throw new TransferException(outcome.failure.getMessage() + "; the agent's counts are unknown: "
                        + Failures.describe(e) + "; this host completed " + trips[0] + " round trips", e);
            }
            throw e;
        }
    }

    /** Holds the outcome of the sweep while the agent's counts are read. */
    private static final class PingPongResultOrError {
        PingPongResult result;
        TransferException failure;
    }

    private RrResult rr(RrSpec r, Control c, InetAddress address, RunFacts facts) throws IOException, TransferException {
        ObjectNode req = Control.message("rr");
        req.set("spec", LatencySpecJson.rr(r));
        c.send(req);
        InetSocketAddress server = new InetSocketAddress(address, port(c.expect("ready")));
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, r.timeout().toMillis()));
        boolean[] finished = {false};
        try {
            return runRr(r, c, server, timeout, facts, finished);
        } catch (TransferException e) {
            if (finished[0]) {
                throw e;
            }
            // a flow failed first: the agent's counts, and whether it stopped, say why
            String agent;
            try {
                sendDone(c);
                c.timeout(timeout + 1000);
                JsonNode m = c.expect("result");
                agent = (m.hasNonNull("stopped") ? m.get("stopped").asText() + "; " : "") + "the agent accepted "
                        + m.path("accepts").asLong(-1) + " connections and served " + m.path("served").asLong(-1)
                        + " responses";
            } catch (IOException unknown) {
                agent = "the agent's counts are unknown: " + unknown.getMessage();
            }
            throw new TransferException(e.getMessage() + "; " + agent, e);
        }
    }

    private RrResult runRr(RrSpec r, Control c, InetSocketAddress server, int timeout, RunFacts facts,
                           boolean[] finished) throws TransferException {
        LatencyTcpInfo.End[] agentTcp = new LatencyTcpInfo.End[1];
        RrResult result = ends.runRr(r, clock, facts, new RrServerSide() {
            @Override
            public SocketAddress address() {
                return server;
            }

            @Override
            public Throwable failure() {
                return null;
            }

            @Override
            public long served() {
                return -1;
            }

            @Override
            public long[] finish() throws IOException, TransferException {
                finished[0] = true;
                sendDone(c);
                c.timeout(timeout + 1000);
                JsonNode m = c.expect("result");
                long accepts = m.path("accepts").asLong(-1);
                long served = m.path("served").asLong(-1);
                if (m.hasNonNull("stopped")) {
                    throw new TransferException(m.get("stopped").asText() + "; the agent accepted " + accepts
                            + " connections and served " + served + " responses", null);
                }
                if (m.hasNonNull("failure")) {
                    throw new TransferException(r.testName() + " server on the agent failed after " + served
                            + " responses: " + m.get("failure").asText(), null);
                }
                agentTcp[0] = EndJson.latencyTcp(m, AGENT_RR_SOURCE);
                return new long[] {accepts, served};
            }
        });
        return result.tcpInfo().isEmpty() || agentTcp[0] == null ? result
                : result.withTcpInfo(new LatencyTcpInfo(result.tcpInfo().get().client(), agentTcp[0]));
    }

    /** Says done; an agent that stopped first has sent its counts and closed, which are still read after this. */
    private static void sendDone(Control c) {
        try {
            c.send(Control.message("done"));
        } catch (IOException e) {
            // the agent's counts, or its reason, are read next
        }
    }

    private static int port(JsonNode ready) throws IOException {
        int port = ready.path("port").asInt(0);
        if (port < 1 || port > 65535) {
            throw new IOException("the agent named data port " + port + "; allowed: 1..65535");
        }
        return port;
    }

    /** Nothing to release: {@link #run()} releases every socket and thread before it returns. */
    @Override
    public void close() {
        ran = true;
    }

    private static String version() {
        String v = RemoteLatency.class.getPackage().getImplementationVersion();
        return v == null ? "dev" : v;
    }
}
