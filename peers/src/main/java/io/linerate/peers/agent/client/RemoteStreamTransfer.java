package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.DataPath;
import io.linerate.core.Endpoint;
import io.linerate.core.Failures;
import io.linerate.core.IntervalListener;
import io.linerate.core.IntervalSample;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.RunOnce;
import io.linerate.core.spi.ends.PeerEnds;
import io.linerate.core.spi.ends.StreamChannel;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.core.spi.engine.StreamEnd;
import io.linerate.peers.agent.internal.wire.AgentGo;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.ControlBeats;
import io.linerate.peers.agent.internal.wire.ParallelEnds;
import io.linerate.peers.agent.internal.wire.SpecJson;
import io.linerate.peers.internal.PeerEndsLookup;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One end of a stream in this JVM, the other run by a peer agent ({@link io.linerate.peers.agent.server.Agent}) reached at the
 * spec's {@link Endpoint.Remote}. Opening connects the control connection, answers the agent's
 * challenge, sends the spec and connects the data sockets, each bounded by the spec's I/O timeout.
 * The result joins both ends' counts ({@link RemoteStreamResult}). The agent's ends start when
 * this end runs (it says {@code start} then), not when the transfer opened: run it within the
 * agent's handshake timeout (10 s by default) of opening it.
 *
 * <p>With {@link RemoteOptions#streams()} above 1 (iperf3's {@code -P}), one session on the agent
 * carries that many streams: one control connection, one data socket per stream, all started
 * together and each counted as a stream of its own ({@link #runStreams}). Stream {@code i} (from 0)
 * carries stream id {@code spec.streamId() + i}; the spec's rate is the whole transfer's, each
 * stream sends its share (rate / N, the remainder to stream 0).
 *
 * <p>While the streams run, both ends beat on the control connection ({@link ControlBeats}) when the
 * agent knows beats, and each gives up on a path silent for the spec's I/O timeout: a black-holed
 * path ends this end and the agent's within that timeout, whichever way the data flows and whatever
 * the protocol, and the run fails with the bytes this host counted.
 *
 * <p>The receiving side says {@code go} once its receivers read their sockets, and the sending
 * side sends only then, so that nothing sent first only overflows a socket buffer nobody reads yet
 * (in reverse that lost a fifth to a half of a first interval at 100 Mbit/s; forward, into an agent
 * that had not run a stream yet, on a loaded host, most of a first second). This end asks for it
 * with {@value Control#GO} in the request, and an agent that knows it confirms in its {@code ready}: in
 * reverse it waits for this end's {@code go}; forward this end waits for the agent's, at most the
 * I/O timeout.
 */
public final class RemoteStreamTransfer implements Transfer {
    private final TransferSpec spec;
    private final Clock clock;
    private final RemoteOptions options;
    private final Control control;
    private final List<StreamChannel> data;
    private final String clockComparison;
    private final ControlBeats beats;
    private final boolean go;
    private final RunOnce life = new RunOnce("transfer");

    private RemoteStreamTransfer(TransferSpec spec, Clock clock, RemoteOptions options, Control control,
                                 List<StreamChannel> data, String clockComparison, ControlBeats beats, boolean go) {
        this.go = go;
        this.clockComparison = clockComparison;
        this.beats = beats;
        this.spec = spec;
        this.clock = clock;
        this.options = options;
        this.control = control;
        this.data = List.copyOf(data);
    }

    /**
     * @param spec a duration-bound TCP or UDP spec whose endpoint is {@link Endpoint.Remote}
     * @throws TransferException when the agent cannot be reached, refuses (its reason is in the
     *     message; an agent refuses more streams than its {@code --max-streams}), or a data socket
     *     cannot be connected; nothing is left open
     * @throws IllegalArgumentException for a loopback endpoint
     */
    public static RemoteStreamTransfer open(TransferSpec spec, Clock clock, RemoteOptions options)
            throws TransferException {
        return open(spec, clock, options, PeerEndsLookup.defaults());
    }

    /**
     * As {@link #open(TransferSpec, Clock, RemoteOptions)}, with this host's data sockets on {@code ends}.
     *
     * @param ends the ends of the transport this host's data sockets run on
     */
    public static RemoteStreamTransfer open(TransferSpec spec, Clock clock, RemoteOptions options, PeerEnds ends)
            throws TransferException {
        if (!(spec.endpoint() instanceof Endpoint.Remote peer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not a remote peer");
        }
        InetAddress address = AgentClient.resolve(peer, spec.family());
        int timeout = (int) Math.min(Integer.MAX_VALUE, Math.max(1, spec.ioTimeout().toMillis()));
        int n = options.streams();
        Control c = null;
        List<StreamChannel> chs = new ArrayList<>();
        String clockComparison;
        boolean sending = !options.reverse();
        try {
            AgentClient.Connected connected = AgentClient.connect(peer, address, timeout, options);
            c = connected.control();
            clockComparison = connected.clock();
            Socket s = c.socket();
            ObjectNode req = Control.message("stream").put("direction", sending ? "forward" : "reverse");
            req.set("spec", SpecJson.node(spec));
            req.put("streams", n);
            // the agent's ends wait for this end's "start" (sent when it runs): both windows start with the data
            req.put("start", "message");
            req.put(ControlBeats.FIELD, ControlBeats.intervalMillis(timeout));
            req.put(Control.GO, true);
            InetAddress local = s.getLocalAddress();
            if (spec.protocol() == Protocol.UDP) {
                ArrayNode ports = req.putArray("udp_ports");
                for (int i = 0; i < n; i++) {
                    StreamChannel ch = ends.bindUdp(ParallelEnds.streamSpec(spec, i, n), local, sending);
                    chs.add(ch);
                    ports.add(ch.localPort());
                }
                req.put("udp_port", chs.get(0).localPort());
            }
            c.send(req);
            JsonNode ready = c.expect("ready");
            List<Integer> ports = new ArrayList<>();
            if (ready.path("ports").isArray()) {
                ready.get("ports").forEach(p -> ports.add(p.asInt(0)));
            } else {
                ports.add(ready.path("port").asInt(0));
            }
            if (ports.size() != n) {
                throw new IOException("the agent named " + ports.size() + " data ports for " + n + " streams"
                        + (n > 1 && ports.size() == 1 ? "; it runs one stream a session (a version before --parallel)" : ""));
            }
            for (int i = 0; i < n; i++) {
                int port = ports.get(i);
                if (port < 1 || port > 65535) {
                    throw new IOException("the agent named data port " + port + "; allowed: 1..65535");
                }
                InetSocketAddress far = new InetSocketAddress(address, port);
                if (spec.protocol() == Protocol.UDP) {
                    chs.get(i).connectUdp(far);
                } else {
                    chs.add(ends.connectTcp(ParallelEnds.streamSpec(spec, i, n), far, sending));
                }
            }
            // an agent that beats expects this end's beats from now on, and gives up on their silence
            ControlBeats beats = ready.path(ControlBeats.FIELD).asLong(0) > 0
                    ? ControlBeats.start(c, ControlBeats.intervalMillis(timeout)) : null;
            return new RemoteStreamTransfer(spec, clock, options, c, chs, clockComparison, beats,
                    ready.path(Control.GO).asBoolean(false));
        } catch (IOException | RuntimeException e) {
            chs.forEach(RemoteStreamTransfer::closeQuietly);
            closeQuietly(c);
            throw new TransferException("stream with the agent at " + peer + ": " + Failures.describe(e), e);
        } catch (TransferException e) {
            chs.forEach(RemoteStreamTransfer::closeQuietly);
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
     * Runs this end of a one-stream transfer and collects the agent's counts; see
     * {@link Transfer#run(IntervalListener)}.
     *
     * @param listener this end's interval samples, on a thread of the transfer's
     * @return both ends' counts
     * @throws TransferException when either end fails or the agent reports an error (its reason is in
     *     the message) or says nothing within the I/O timeout after its end should have finished
     * @throws IllegalStateException when the transfer was opened with several streams (use {@link #runStreams})
     */
    public RemoteStreamResult runBothEnds(IntervalListener listener) throws TransferException {
        if (data.size() != 1) {
            throw new IllegalStateException("this transfer runs " + data.size() + " streams; use runStreams");
        }
        return runStreams((i, s) -> listener.onInterval(s)).streams().get(0);
    }

    /** Receives one stream's interval samples; called on that stream's own thread. */
    @FunctionalInterface
    public interface StreamListener {
        /**
         * @param stream the stream's index, from 0
         * @param sample its interval
         */
        void onInterval(int stream, IntervalSample sample);
    }

    /**
     * Runs this end of every stream, each on a thread of its own, and collects the agent's counts.
     *
     * @param listener every stream's interval samples, each on its stream's thread
     * @return every stream's two ends, and their sum
     * @throws TransferException when any stream fails (the others are ended with it), or the agent
     *     reports an error (its reason is in the message) or says nothing within the I/O timeout
     *     after its ends should have finished
     */
    public RemoteParallelResult runStreams(StreamListener listener) throws TransferException {
        life.begin();
        boolean sending = !options.reverse();
        int n = data.size();
        List<StreamEnd> ends = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TransferSpec s = ParallelEnds.streamSpec(spec, i, n);
            ends.add(sending ? StreamEnd.sender(s, clock, data.get(i).sendLoop(), data.get(i).tcpProbe().orElse(null))
                    : StreamEnd.receiver(s, clock, data.get(i).receiveLoop()));
        }
        long io = spec.ioTimeout().toMillis();
        try {
            control.send(Control.message("start"));
        } catch (IOException e) {
            // an agent that stopped or gave up waiting has closed its end: the ends and the watch below say why
        }
        if (go && sending) {
            AgentGo.awaitAgent(control, spec.endpoint(), io); // a failure leaves the beats to close()
        }
        // the agent says nothing but beats until its ends are over: its result, or why it ended; the watch reads that
        // one message while these ends run, so that an agent that stopped or went away (its control
        // connection closed or reset) ends them at once, not at their deadline
        long bound = spec.warmup().toMillis() + spec.bound().amount() / 1_000_000L + 3 * io + 1000;
        ControlWatch watch = new ControlWatch(control, (int) Math.min(Integer.MAX_VALUE, bound),
                beats == null ? 0 : Math.max(1, io), () -> ends.forEach(StreamEnd::abort)).start();
        try {
            return runEnds(watch, ends, listener, bound);
        } finally {
            closeQuietly(beats);
        }
    }

    private RemoteParallelResult runEnds(ControlWatch watch, List<StreamEnd> ends, StreamListener listener, long bound)
            throws TransferException {
        boolean sending = !options.reverse();
        int n = data.size();
        long io = spec.ioTimeout().toMillis();
        ParallelEnds run = ParallelEnds.start(ends, i -> sending ? () -> -1 : AgentWord.peerSent(watch, i),
                i -> s -> listener.onInterval(i, s), "linerate-stream-");
        if (go && !sending) {
            AgentGo.sayOnceReading(control, ends, io);
        }
        run.await(bound + io);
        // an interrupt (SIGINT) ends the wait: the windows close here and on the agent, and the counts so far are the result
        boolean interrupted = Thread.interrupted();
        if (interrupted && !run.done()) {
            stopOnInterrupt(run);
        }
        TransferException failed = run.done() ? run.failure()
                : new TransferException("the streams did not " + (interrupted ? "stop within the I/O timeout after "
                + "the interrupt" : "end within " + (bound + io) + " ms"), null);
        if (failed != null) {
            run.abortAll();
            if (!watch.over()) {
                // this end may have failed first (a reset data socket): the agent's word follows within the I/O timeout
                try {
                    watch.await(Math.max(1, io));
                } catch (IOException ignored) {
                    // classified below
                }
            }
            throw AgentWord.ended(watch, spec.endpoint(), run.bytesSoFar(), failed).orElse(failed);
        }
        List<EndCounters> local = run.counters();
        try {
            List<AppliedOptions> localOptions = new ArrayList<>();
            for (StreamChannel ch : data) {
                localOptions.add(ch.options());
            }
            if (sending && spec.protocol() == Protocol.UDP) {
                // a UDP receiver cannot see the end of a stream: it drains until this many of the
                // datagrams sent in this end's window (their header says so) have arrived
                ObjectNode done = Control.message("done").put("messages", local.get(0).messages())
                        .put("window_messages", local.get(0).windowMessages());
                ArrayNode each = done.putArray("window_messages_each");
                local.forEach(e -> each.add(e.windowMessages()));
                try {
                    control.send(done);
                } catch (IOException e) {
                    // an agent that stopped has closed its end; what it sent before is still read below
                }
            }
            if (interrupted) {
                List<Optional<DataPath.End>> localPaths = new ArrayList<>();
                data.forEach(ch -> localPaths.add(ch.dataPathEnd()));
                return InterruptedEnds.collect(spec, watch, local, localOptions, localPaths, clockComparison);
            }
            // the agent's ends may close their windows up to a control round trip after ours, then drain
            try {
                watch.await(2 * io + 1000);
            } catch (IOException e) {
                if (!watch.over()) {
                    throw e;
                }
            }
            long localBytes = local.stream().mapToLong(EndCounters::bytes).sum();
            Optional<TransferException> ended = AgentWord.ended(watch, spec.endpoint(), localBytes, null);
            if (ended.isPresent()) {
                throw ended.get();
            }
            List<RemoteStreamResult> out = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                JsonNode remote = AgentWord.farEnd(watch.message(), i, n);
                // the sending socket's TCP_INFO: this end's where it sends, else the agent's, at the end and per interval
                out.add(TcpJoin.stream(ParallelEnds.streamSpec(spec, i, n), local.get(i), localOptions.get(i),
                        data.get(i).tcpStats(), data.get(i).dataPathEnd(), data.get(i).socketDrops(), watch.message(),
                        remote, clockComparison));
            }
            return new RemoteParallelResult(out);
        } catch (IOException e) {
            throw new TransferException("stream with the agent at " + spec.endpoint() + ": " + Failures.describe(e), e);
        }
    }

    /**
     * This thread was interrupted while the ends ran: every end here closes its window, and the
     * agent is asked to close its own ({@value Control#STOP}); returns once the ends here stopped, or after
     * two I/O timeouts.
     */
    private void stopOnInterrupt(ParallelEnds run) {
        run.interruptAll();
        try {
            control.send(Control.message(Control.STOP));
        } catch (IOException e) {
            // an agent that went away answers nothing: this end's counts are reported alone
        }
        run.await(2 * spec.ioTimeout().toMillis() + 1000);
    }

    @Override
    public void close() {
        if (life.close()) {
            closeQuietly(beats);
            data.forEach(RemoteStreamTransfer::closeQuietly);
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
