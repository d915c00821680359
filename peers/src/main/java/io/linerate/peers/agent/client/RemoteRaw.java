package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.linerate.core.AgentPeer;
import io.linerate.core.Clock;
import io.linerate.core.Endpoint;
import io.linerate.core.Failures;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.RawEndCounts;
import io.linerate.core.RawEndsResult;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.spi.Listening;
import io.linerate.core.spi.Transport;
import io.linerate.peers.agent.internal.wire.Control;
import io.linerate.peers.agent.internal.wire.RawSpecJson;
import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A raw-frame run whose far end is a peer agent ({@link io.linerate.peers.agent.server.Agent}) at the spec's
 * {@link AgentPeer} or {@link Endpoint.Remote}: this host runs the spec's one end (TX-only or RX-only)
 * on the transport the spec was selected with ({@link AgentProtocol}: the afpacket transport), or
 * else through {@link Transports#select}, and the agent runs the other
 * on the spec's {@link RawTransferSpec#peerInterface()}. Ordering makes the counts comparable: the
 * receiving end is open (its rings and its interface counters' baseline) before the first frame is
 * sent, and it listens {@value #START_ALLOWANCE_MS} ms plus the drain timeout longer than the sender
 * sends. {@link #run()} gives a {@link RemoteRawResult}, and releases everything before it returns or
 * throws.
 */
public final class RemoteRaw implements Measurement {
    /** How much longer than the sender's warm-up + duration + drain timeout the receiving end listens, ms. */
    public static final long START_ALLOWANCE_MS = 1000;
    private static final int CONTROL_TIMEOUT_MS = (int) Control.DEFAULT_HANDSHAKE_TIMEOUT.toMillis();

    private final RawTransferSpec spec;
    private final Clock clock;
    private final RemoteOptions options;
    private final Optional<Transport> local;
    private boolean ran;

    private RemoteRaw(RawTransferSpec spec, Clock clock, RemoteOptions options, Optional<Transport> local) {
        this.spec = spec;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.options = Objects.requireNonNull(options, "options");
        this.local = Objects.requireNonNull(local, "local");
    }

    /**
     * A run whose end on this host takes the first available transport that runs it ({@link Transports#select}).
     *
     * @param spec a one-ended raw spec whose endpoint is linerate's agent ({@link AgentPeer} or
     *     {@link Endpoint.Remote}), with the peer's interface
     * @param options the secret; {@link RemoteOptions#reverse()} does not apply (the spec's end says who sends)
     * @throws IllegalArgumentException for another endpoint or a reverse option
     */
    public static RemoteRaw of(RawTransferSpec spec, Clock clock, RemoteOptions options) {
        return of(spec, clock, options, Optional.empty());
    }

    /**
     * @param spec a one-ended raw spec whose endpoint is linerate's agent ({@link AgentPeer} or
     *     {@link Endpoint.Remote}), with the peer's interface
     * @param options the secret; {@link RemoteOptions#reverse()} does not apply (the spec's end says who sends)
     * @param local the transport this host's end runs on; empty for the first available that runs it
     * @throws IllegalArgumentException for another endpoint or a reverse option
     */
    public static RemoteRaw of(RawTransferSpec spec, Clock clock, RemoteOptions options, Optional<Transport> local) {
        if (!(spec.endpoint() instanceof Endpoint.Remote) && !(spec.endpoint() instanceof AgentPeer)) {
            throw new IllegalArgumentException("the spec's endpoint is " + spec.endpoint() + ", not linerate's agent");
        }
        if (options.reverse()) {
            throw new IllegalArgumentException("a raw run's direction is its spec's: a TX-only spec sends to the peer, "
                    + "an RX-only spec receives from it; --reverse does not apply");
        }
        return new RemoteRaw(spec, clock, options, local);
    }

    @Override
    public RawTransferSpec spec() {
        return spec;
    }

    /**
     * @return both ends' counts
     * @throws TransferException when the agent cannot be reached or refuses (its reason, such as no
     *     raw transport on its host, is the message), this host's end cannot run, or the agent's
     *     result does not come within its run plus the control timeout
     */
    @Override
    public RemoteRawResult run() throws TransferException {
        if (ran) {
            throw new IllegalStateException("this raw measurement has already run; open another one");
        }
        ran = true;
        Endpoint.Remote peer = spec.endpoint().remoteAddress().orElseThrow();
        InetAddress address;
        try {
            address = InetAddress.getByName(peer.host());
        } catch (UnknownHostException e) {
            throw new TransferException("peer host '" + peer.host() + "' cannot be resolved", e, true);
        }
        AgentClient.Connected conn;
        try {
            conn = AgentClient.connect(peer, address, CONTROL_TIMEOUT_MS, options);
        } catch (IOException e) {
            throw new TransferException("raw frames with the agent at " + peer + ": " + Failures.describe(e), e);
        }
        try (Control c = conn.control()) {
            return spec.sends() ? forward(c, conn.clock()) : reverse(c, conn.clock());
        } catch (IOException e) {
            throw new TransferException("raw frames with the agent at " + peer + ": " + Failures.describe(e), e);
        }
    }

    /** This host sends; the agent receives. */
    private RemoteRawResult forward(Control c, String clockComparison) throws IOException, TransferException {
        RawTransferSpec agentEnd = rawBuilder(RawTransferSpec.rxOnly(spec.peerInterface().orElseThrow()))
                .duration(listening(spec)).steer(false).build();
        ObjectNode req = Control.message("raw");
        req.set("spec", RawSpecJson.node(agentEnd));
        c.send(req);
        JsonNode ready = c.expect("ready");
        byte[] dst;
        if (spec.destinationMac().isPresent()) {
            dst = spec.destinationMac().get();
        } else if (ready.path("mac").isTextual()) {
            dst = RawTransferSpec.parseMac(ready.get("mac").asText());
        } else {
            throw new TransferException("the agent cannot read the address of its interface " + spec.peerInterface().get()
                    + "; give the destination MAC (--dst-mac)", null, true);
        }
        RawTransferSpec localEnd = local(spec, Optional.of(dst), spec.duration());
        MeasurementResult mine;
        try (Measurement m = transportOf(localEnd).open(localEnd, clock)) {
            mine = m.run();
        }
        c.timeout(timeoutAfter(agentEnd.warmup().plus(agentEnd.duration()).plus(agentEnd.drainTimeout())));
        return joined(mine, c.expect("result"), clockComparison);
    }

    /** The agent sends; this host receives. */
    private RemoteRawResult reverse(Control c, String clockComparison) throws IOException, TransferException {
        String rx = spec.rxInterface().orElseThrow();
        byte[] dst = spec.destinationMac().orElse(null);
        if (dst == null) {
            dst = localMac(rx);
        }
        RawTransferSpec agentEnd = rawBuilder(RawTransferSpec.txOnly(spec.peerInterface().orElseThrow()))
                .destinationMac(dst).steer(false).build();
        if (spec.sourceMac().isPresent()) {
            agentEnd = rawBuilder(RawTransferSpec.txOnly(spec.peerInterface().get())).destinationMac(dst)
                    .sourceMac(spec.sourceMac().get()).steer(false).build();
        }
        RawTransferSpec localEnd = local(spec, spec.destinationMac(), listening(spec));
        Transport t = transportOf(localEnd);
        ObjectNode req = Control.message("raw");
        req.set("spec", RawSpecJson.node(agentEnd));
        c.send(req);
        c.expect("ready");
        try (Measurement m = t.open(localEnd, clock)) {
            if (!(m instanceof Listening l)) {
                throw new TransferException("transport " + t.name() + " cannot say when its receiving end is open, so the "
                        + "agent could send before it counts", null, true);
            }
            CountDownLatch open = new CountDownLatch(1);
            l.whenListening(open::countDown);
            CompletableFuture<MeasurementResult> mine = new CompletableFuture<>();
            Thread runner = new Thread(() -> {
                try {
                    mine.complete(m.run());
                } catch (TransferException | RuntimeException e) {
                    mine.completeExceptionally(e);
                }
            }, "linerate-raw-local-rx");
            runner.setDaemon(true);
            runner.start();
            try {
                long openBy = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONTROL_TIMEOUT_MS);
                while (!open.await(10, TimeUnit.MILLISECONDS)) {
                    if (mine.isDone()) {
                        mine.get(); // this end ended before it listened: its failure is the reason
                        throw new TransferException("this host's receiving end ended before it opened", null);
                    }
                    if (System.nanoTime() - openBy > 0) {
                        throw new TransferException("this host's receiving end did not open within " + CONTROL_TIMEOUT_MS
                                + " ms", null);
                    }
                }
                c.send(Control.message("go"));
                long wait = localEnd.warmup().plus(localEnd.duration()).plus(localEnd.drainTimeout()).toMillis()
                        + CONTROL_TIMEOUT_MS;
                MeasurementResult result = mine.get(wait, TimeUnit.MILLISECONDS);
                c.timeout(CONTROL_TIMEOUT_MS);
                return joined(result, c.expect("result"), clockComparison);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransferException("interrupted while receiving from the agent", e);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                if (cause instanceof TransferException te) {
                    throw te;
                }
                throw new TransferException("this host's receiving end failed: " + Failures.describe(cause), cause);
            } catch (TimeoutException e) {
                throw new TransferException("this host's receiving end did not end within its listening time", e);
            }
        }
    }

    /**
     * Joins this host's end, as its transport's typed result, with the agent's {@code result}
     * message, the one part that crossed the wire as JSON.
     */
    private RemoteRawResult joined(MeasurementResult mine, JsonNode agentResult, String clockComparison)
            throws IOException, TransferException {
        String end = spec.sends() ? "sending" : "receiving";
        if (!(mine instanceof RawEndsResult ends)) {
            throw new TransferException("this host's " + end + " end gave a " + mine.getClass().getSimpleName()
                    + ", not a raw-frame result with its counts", null);
        }
        RawEndCounts counts = (spec.sends() ? ends.senderCounts() : ends.receiverCounts()).orElseThrow(
                () -> new TransferException("this host's result has no " + end + " end's counts", null));
        RawEndReport local = RawEndReport.of(counts, mine.invalidReasons(), mine.metrics());
        return new RemoteRawResult(spec, mine, local, RawEndReport.ofAgent(agentResult), clockComparison);
    }

    /** @return the transport of this host's end: the one given, or the first available that runs it */
    private Transport transportOf(RawTransferSpec localEnd) {
        return local.orElseGet(() -> Transports.select(null, localEnd));
    }

    /** @return how long a receiving end listens: the sender's duration, its drain timeout and the start allowance */
    private static Duration listening(RawTransferSpec s) {
        return s.duration().plus(s.drainTimeout()).plusMillis(START_ALLOWANCE_MS);
    }

    private static int timeoutAfter(Duration run) {
        return (int) Math.min(Integer.MAX_VALUE, run.toMillis() + CONTROL_TIMEOUT_MS);
    }

    /** @return a builder of {@code b}'s end with this spec's frames, times and options */
    private RawTransferSpec.Builder rawBuilder(RawTransferSpec.Builder b) {
        b.etherTypes(spec.etherTypes()).frameSize(spec.frameSize()).rateBitsPerSecond(spec.rateBitsPerSecond())
                .duration(spec.duration()).warmup(spec.warmup()).interval(spec.interval()).batch(spec.batch())
                .allowUnsteered(spec.allowUnsteered()).hardwareTimestamps(spec.hardwareTimestamps())
                .retireTimeout(spec.retireTimeout()).drainTimeout(spec.drainTimeout()).txRing(spec.txRing())
                .idle(spec.idle().orElse(null));
        return b;
    }

    /** @return this host's end: the spec with a loopback endpoint, no peer interface, and the given MAC and duration */
    private static RawTransferSpec local(RawTransferSpec s, Optional<byte[]> dst, Duration duration) {
        return s.toBuilder().destinationMac(dst.orElse(null)).duration(duration).endpoint(Endpoint.loopback())
                .peerInterface(null).build();
    }

    private static byte[] localMac(String iface) throws TransferException {
        return RawSpecJson.macOf(iface).orElseThrow(() -> new TransferException("cannot read the address of interface "
                + iface + " for the agent to send to; give the destination MAC (--dst-mac)", null, true));
    }

    /** Nothing to release: {@link #run()} releases everything before it returns. */
    @Override
    public void close() {
        ran = true;
    }
}
