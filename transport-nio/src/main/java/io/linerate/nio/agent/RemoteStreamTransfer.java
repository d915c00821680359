package io.linerate.nio.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AddressFamily;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Failures;
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
            throw new TransferException("stream with the agent at " + peer + ": " + Failures.describe(e), e);
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
        long io = spec.ioTimeout().toMillis();
        // the agent says nothing until its end is over: its result, or why it ended; the watch reads that
        // one message while this end runs, so that an agent that stopped or went away (its control
        // connection closed or reset) ends this end at once, not at this end's deadline
        long bound = spec.warmup().toMillis() + spec.bound().amount() / 1_000_000L + 3 * io + 1000;
        ControlWatch watch = new ControlWatch(control, (int) Math.min(Integer.MAX_VALUE, bound), end::abort).start();
        EndCounters local;
        try {
            local = end.run(listener, sending ? () -> -1 : peerSent(watch));
        } catch (TransferException e) {
            if (!watch.over()) {
                // this end may have failed first (a reset data socket): the agent's word follows within the I/O timeout
                try {
                    watch.await(Math.max(1, io));
                } catch (IOException ignored) {
                    // classified below
                }
            }
            throw agentEnded(watch, end.bytesSoFar(), e).orElse(e);
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
            // the agent's end may close its window up to a control round trip after ours, then drain
            try {
                watch.await(2 * io + 1000);
            } catch (IOException e) {
                if (!watch.over()) {
                    throw e;
                }
            }
            Optional<TransferException> ended = agentEnded(watch, local.bytes(), null);
            if (ended.isPresent()) {
                throw ended.get();
            }
            JsonNode remote = watch.message().get("end");
            if (remote == null || !remote.isObject()) {
                throw new IOException("the agent's result holds no counters");
            }
            EndCounters far = EndJson.counters(remote);
            return new RemoteStreamResult(join(local, localOptions, far, EndJson.options(remote)), local, far,
                    clockComparison);
        } catch (IOException e) {
            throw new TransferException("stream with the agent at " + spec.endpoint() + ": " + Failures.describe(e), e);
        }
    }

    /**
     * @return why the run ended when the agent's control message (or its absence) says so: it stopped
     *     (with both ends' counts), it reported an error, or it went away (its control connection
     *     closed or was reset); empty when its {@code result} arrived or nothing is known yet
     */
    private Optional<TransferException> agentEnded(ControlWatch watch, long localBytes, TransferException cause) {
        if (!watch.over()) {
            return Optional.empty();
        }
        String at = "stream with the agent at " + spec.endpoint();
        IOException failure = watch.failure();
        if (failure != null) {
            return Optional.of(new TransferException(at + " failed: the agent went away mid-stream (" + Failures.describe(failure)
                    + ") after " + localBytes + " bytes at this host", failure));
        }
        JsonNode m = watch.message();
        String type = m.get("type").asText();
        switch (type) {
            case "result":
                return Optional.empty();
            case "stopped":
                return Optional.of(new AgentStoppedException(at + " ended early", m.path("reason").asText("no reason given"),
                        localBytes, m.path("bytes").asLong(-1), m.path("messages").asLong(-1), cause));
            case "error", "refused":
                return Optional.of(new TransferException(at + " failed: the agent reported: "
                        + m.path("reason").asText("no reason given"), cause));
            default:
                return Optional.of(new TransferException(at + ": expected a \"result\" control message, got \""
                        + type + "\"", cause));
        }
    }

    /**
     * A UDP receiver here learns the agent's window datagram count from its result, which it sends when its
     * sender ends; -1 before.
     */
    private static LongSupplier peerSent(ControlWatch watch) {
        return () -> {
            JsonNode m = watch.resultNow();
            return m == null ? -1 : m.path("end").path("window_messages").asLong(-1);
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
            if (tx.windowBytes() == 0) {
                reasons.add("no payload byte was sent in the sender's window of " + tx.windowNanos() + " ns; "
                        + "lengthen the duration");
            } else if (rx.windowBytes() == 0) {
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
        // The window is the sender's, as each end's clock is its own. A UDP receiver counts the datagrams
        // the sender sent inside it (the header's phase), wherever they arrived. A TCP receiver's own window
        // also holds bytes the sender wrote in its warm-up; the stream is in order and the receiver counted
        // every byte sent (else the result is invalid above), so the sender's window bytes all arrived and
        // are the window's traffic. Either way goodput is over the sender's window length.
        long windowEnd = rx.windowStartNanos() + tx.windowNanos();
        long windowReceived = spec.protocol() == Protocol.UDP ? rx.windowBytes()
                : rx.bytes() == tx.bytes() ? tx.windowBytes() : Math.min(rx.windowBytes(), tx.windowBytes());
        return TransferResult.builder(spec).bytesSent(tx.bytes()).messagesSent(tx.messages()).bytesReceived(rx.bytes())
                .window(rx.windowStartNanos(), windowEnd).windowBytesSent(tx.windowBytes())
                .windowBytesReceived(windowReceived).udp(udp).intervals(local.intervals()).options(options)
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
