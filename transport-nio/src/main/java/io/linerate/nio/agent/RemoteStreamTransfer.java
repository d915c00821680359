package io.linerate.nio.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.IntervalListener;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.cost.InstructionCount;
import io.linerate.core.TransferSpec;
import io.linerate.core.UdpStats;
import io.linerate.core.engine.EndCounters;
import io.linerate.core.engine.StreamEnd;
import io.linerate.core.latency.ExactRangeHistogram;
import io.linerate.nio.internal.PeerChannel;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * One end of a stream in this JVM, the other run by a peer agent ({@link Agent}) reached at the
 * spec's {@link Endpoint.Remote}. Opening connects the control connection, answers the agent's
 * challenge, sends the spec and connects the data socket, each bounded by the spec's I/O timeout.
 * The result joins both ends' counts ({@link RemoteStreamResult}).
 */
public final class RemoteStreamTransfer implements Transfer {
    private final TransferSpec spec;
    private final Clock clock;
    private final RemoteOptions options;
    private final Control control;
    private final PeerChannel data;
    private final String clockComparison;
    private final AtomicBoolean ran = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    private RemoteStreamTransfer(TransferSpec spec, Clock clock, RemoteOptions options, Control control,
                                 PeerChannel data, String clockComparison) {
        this.clockComparison = clockComparison;
        this.spec = spec;
        this.clock = clock;
        this.options = options;
        this.control = control;
        this.data = data;
    }

    /**
     * @param spec a duration-bound TCP or UDP spec whose endpoint is {@link Endpoint.Remote}
     * @throws TransferException when the agent cannot be reached, refuses (its reason is in the
     *     message), or the data socket cannot be connected; nothing is left open
     * @throws IllegalArgumentException for a loopback endpoint
     */
    public static RemoteStreamTransfer open(TransferSpec spec, Clock clock, RemoteOptions options)
            throws TransferException {
        if (!(spec.endpoint() instanceof Endpoint.Remote peer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not a remote peer");
        }
        InetAddress address = AgentClient.resolve(peer, spec.family());
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, spec.ioTimeout().toMillis()));
        Control c = null;
        PeerChannel ch = null;
        String clockComparison;
        boolean sending = !options.reverse();
        try {
            AgentClient.Connected connected = AgentClient.connect(peer, address, timeout, options);
            c = connected.control();
            clockComparison = connected.clock();
            Socket s = c.socket();
            ObjectNode req = Control.message("stream").put("direction", sending ? "forward" : "reverse");
            req.set("spec", SpecJson.node(spec));
            InetAddress local = s.getLocalAddress();
            if (spec.protocol() == Protocol.UDP) {
                ch = PeerChannel.bindUdp(spec, local, sending);
                req.put("udp_port", ch.localPort());
            }
            c.send(req);
            int port = c.expect("ready").path("port").asInt(0);
            if (port < 1 || port > 65535) {
                throw new IOException("the agent named data port " + port + "; allowed: 1..65535");
            }
            InetSocketAddress far = new InetSocketAddress(address, port);
            if (ch != null) {
                ch.connectUdp(far);
            } else {
                ch = PeerChannel.connectTcp(spec, far, sending);
            }
            return new RemoteStreamTransfer(spec, clock, options, c, ch, clockComparison);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            closeQuietly(c);
            throw new TransferException("stream with the agent at " + peer + ": " + e.getMessage(), e);
        } catch (TransferException e) {
            closeQuietly(ch);
            closeQuietly(c);
            throw e;
        }
    }

    @Override
    public TransferSpec spec() {
        return spec;
    }

    @Override
    public TransferResult run(IntervalListener listener) throws TransferException {
        return runBothEnds(listener).transfer();
    }

    /**
     * Runs this end and collects the agent's counts; see {@link Transfer#run(IntervalListener)}.
     *
     * @return both ends' counts
     * @throws TransferException when either end fails or the agent reports an error (its reason is in
     *     the message) or says nothing within the I/O timeout after its end should have finished
     */
    public RemoteStreamResult runBothEnds(IntervalListener listener) throws TransferException {
        if (closed.get()) {
            throw new IllegalStateException("transfer is closed");
        }
        if (!ran.compareAndSet(false, true)) {
            throw new IllegalStateException("a transfer runs once; open a new one");
        }
        boolean sending = !options.reverse();
        StreamEnd end = sending ? StreamEnd.sender(spec, clock, data.sendLoop())
                : StreamEnd.receiver(spec, clock, data.receiveLoop());
        JsonNode[] remote = {null};
        JsonNode[] early = {null};
        EndCounters local;
        try {
            local = end.run(listener, sending ? () -> -1 : peerSent(remote, early, end));
        } catch (TransferException e) {
            Optional<AgentStoppedException> stopped = agentStopped(early[0], end.bytesSoFar(), e);
            if (stopped.isPresent()) {
                throw stopped.get();
            }
            throw e;
        }
        try {
            AppliedOptions localOptions = data.options();
            if (sending && spec.protocol() == Protocol.UDP) {
                // a UDP receiver cannot see the end of the stream: it drains until this many of the
                // datagrams sent in this end's window (their header says so) have arrived
                try {
                    control.send(Control.message("done").put("messages", local.messages())
                            .put("window_messages", local.windowMessages()));
                } catch (IOException e) {
                    // an agent that stopped has closed its end; what it sent before is still read below
                }
            }
            if (remote[0] == null) {
                // the agent's end may close its window up to a control round trip after ours, then drain
                control.timeout((int) Math.min(Integer.MAX_VALUE, 2 * spec.ioTimeout().toMillis() + 1000));
                JsonNode m = early[0] != null ? early[0] : control.receive();
                Optional<AgentStoppedException> stopped = agentStopped(m, local.bytes(), null);
                if (stopped.isPresent()) {
                    throw stopped.get();
                }
                String type = m.get("type").asText();
                if (!type.equals("result")) {
                    throw new IOException(type.equals("error") || type.equals("refused")
                            ? m.path("reason").asText("no reason given")
                            : "expected a \"result\" control message, got \"" + type + "\"");
                }
                remote[0] = m.get("end");
            }
            if (remote[0] == null || !remote[0].isObject()) {
                throw new IOException("the agent's result holds no counters");
            }
            EndCounters far = EndJson.counters(remote[0]);
            return new RemoteStreamResult(join(local, localOptions, far, EndJson.options(remote[0])), local, far,
                    clockComparison);
        } catch (IOException e) {
            throw new TransferException("stream with the agent at " + spec.endpoint() + ": " + e.getMessage(), e);
        }
    }

    /**
     * @param m a control message already read, or null to read one now (bounded by the I/O timeout)
     * @return the agent's stop, with both ends' counts, when {@code m} (or the next message) says it
     *     stopped; empty otherwise
     */
    private Optional<AgentStoppedException> agentStopped(JsonNode m, long localBytes, TransferException cause) {
        if (m == null) {
            try {
                control.timeout((int) Math.min(Integer.MAX_VALUE, Math.max(1, spec.ioTimeout().toMillis())));
                m = control.receive();
            } catch (IOException e) {
                return Optional.empty();
            }
        }
        if (!m.get("type").asText().equals("stopped")) {
            return Optional.empty();
        }
        return Optional.of(new AgentStoppedException("stream with the agent at " + spec.endpoint() + " ended early",
                m.path("reason").asText("no reason given"), localBytes, m.path("bytes").asLong(-1),
                m.path("messages").asLong(-1), cause));
    }

    /**
     * A UDP receiver here learns the agent's window datagram count from its result, which it sends when its
     * sender ends; any other message (an agent that stopped) ends this end and is kept in {@code early}.
     */
    private LongSupplier peerSent(JsonNode[] remote, JsonNode[] early, StreamEnd end) {
        return () -> {
            if (remote[0] == null && early[0] == null) {
                try {
                    JsonNode m = control.poll();
                    if (m != null) {
                        if (!m.get("type").asText().equals("result")) {
                            early[0] = m;
                            end.abort();
                            return -1;
                        }
                        remote[0] = m.get("end");
                    }
                } catch (IOException e) {
                    end.abort();
                    return -1;
                }
            }
            return remote[0] == null ? -1 : remote[0].path("window_messages").asLong(-1);
        };
    }

    private TransferResult join(EndCounters local, AppliedOptions lo, EndCounters far, int[] fo) {
        boolean localSends = local.sender();
        EndCounters tx = localSends ? local : far;
        EndCounters rx = localSends ? far : local;
        int tclass = localSends ? lo.trafficClassApplied() : fo[0];
        int sndbuf = localSends ? lo.sendBufferApplied() : fo[1];
        int rcvbuf = localSends ? fo[2] : lo.receiveBufferApplied();
        boolean nodelay = localSends ? lo.noDelayApplied() : fo[3] == 1;
        AppliedOptions options = new AppliedOptions(spec.trafficClass(), tclass, spec.sendBufferBytes(), sndbuf,
                spec.receiveBufferBytes(), rcvbuf, spec.noDelay(), nodelay,
                localSends ? lo.tcpMss() : Optional.empty());
        List<String> reasons = new ArrayList<>();
        Optional<UdpStats> udp = Optional.empty();
        if (spec.protocol() == Protocol.TCP) {
            if (rx.bytes() != tx.bytes()) {
                reasons.add("receiver counted " + rx.bytes() + " bytes but the sender sent " + tx.bytes());
            }
            if (rx.windowBytes() == 0) {
                reasons.add("no byte arrived in the receiver's window");
            }
        } else {
            long sent = tx.windowMessages();
            long got = rx.windowMessages();
            udp = Optional.of(new UdpStats(sent, got, Math.max(0, sent - got), rx.reordered(), rx.duplicates(),
                    got > 0 ? rx.jitterNanos() : java.util.OptionalDouble.empty(),
                    // one-way delay needs the two clocks compared, which they are not
                    new ExactRangeHistogram(1, 60_000_000_000L, 3)));
            if (got == 0) {
                reasons.add("no datagram of the window arrived (" + sent + " sent in it)");
            }
            if (rx.foreign() > 0) {
                reasons.add(rx.foreign() + " datagrams of another stream or without a linerate header arrived");
            }
        }
        if (options.trafficClassApplied() != options.trafficClassRequested()) {
            reasons.add(String.format(Locale.ROOT, "traffic class 0x%02x requested but 0x%02x applied",
                    options.trafficClassRequested(), options.trafficClassApplied()));
        }
        // a UDP receiver counts the datagrams the sender sent inside the sender's window (the header's
        // phase), wherever they arrived: their goodput is over that window's length, the sender's
        long windowEnd = spec.protocol() == Protocol.UDP ? rx.windowStartNanos() + tx.windowNanos() : rx.windowEndNanos();
        return TransferResult.builder(spec).bytesSent(tx.bytes()).messagesSent(tx.messages()).bytesReceived(rx.bytes())
                .window(rx.windowStartNanos(), windowEnd).windowBytesSent(tx.windowBytes())
                .windowBytesReceived(rx.windowBytes()).udp(udp).intervals(local.intervals()).options(options)
                .senderCpuNanos(tx.cpuNanos()).receiverCpuNanos(rx.cpuNanos()).invalidReasons(reasons)
                .instructions(InstructionCount.unavailable("the two ends run in two processes; instructions are "
                        + "counted only where both ends run in this one"))
                .build();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeQuietly(data);
            closeQuietly(control);
        }
    }

    private static void closeQuietly(AutoCloseable a) {
        if (a != null) {
            try {
                a.close();
            } catch (Exception ignored) {
                // closing releases the descriptor even when it reports an error
            }
        }
    }
}
