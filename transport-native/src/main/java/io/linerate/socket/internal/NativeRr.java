package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Muxer;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.RrServerSide;
import io.linerate.core.spi.latency.RrFlows;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Objects;
import java.util.Optional;

/**
 * Request/response (netperf's TCP_RR and TCP_CRR, neper's tcp_rr and tcp_crr) on native sockets,
 * with the server ({@link NativeRrServer}) and every flow ({@link NativeRrFlow}) in this JVM over
 * the loopback address of the spec's family, on core's coordinator ({@link RrFlows}): closed loop,
 * or open loop at the spec's rate. {@link #run()} sets up, measures and releases every socket and
 * thread before it returns or throws, so {@link #close()} has nothing left to release. The report's
 * run facts are this host's ({@link RunFacts#detect}).
 */
public final class NativeRr implements Measurement {
    private final RrSpec spec;
    private final Clock clock;
    private boolean ran;
    private boolean closed;

    private NativeRr(RrSpec spec, Clock clock) {
        this.spec = spec;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @return the measurement, ready to run */
    public static NativeRr of(RrSpec spec, Clock clock) {
        return new NativeRr(spec, clock);
    }

    /**
     * @return why the native flows cannot run the spec (its muxer: they wait in poll(2), as NIO's
     *     selector does), naming the value and the allowed one; or empty
     */
    public static Optional<String> refusal(RrSpec spec) {
        if (spec.muxer() != Muxer.SELECTOR || spec.idle().isPresent()) {
            return Optional.of("muxer " + spec.muxer().label() + spec.idle().map(i -> " (idle " + i.label() + ")").orElse("")
                    + " is not on the native transport's request/response: its flows and server wait in poll(2), "
                    + "as the selector does; allowed: " + Muxer.SELECTOR.label() + "; the nio transport runs the others");
        }
        return Optional.empty();
    }

    @Override
    public MeasurementSpec spec() {
        return spec;
    }

    /**
     * @return the {@link RrResult}
     * @throws TransferException as {@link #flows}, or when the server cannot be set up; nothing is left open
     */
    @Override
    public RrResult run() throws TransferException {
        if (closed || ran) {
            throw new IllegalStateException("this request-response measurement has " + (closed ? "been closed" : "already run")
                    + "; open another one");
        }
        ran = true;
        String v = NativeRr.class.getPackage().getImplementationVersion();
        return run(spec, clock, RunFacts.detect(v == null ? "dev" : v, spec.toString()));
    }

    /** Runs server and flows in this JVM, releasing every socket and thread on every path. */
    static RrResult run(RrSpec spec, Clock clock, RunFacts facts) throws TransferException {
        NativeRrServer server;
        try {
            server = NativeRrServer.open(spec, spec.family().loopbackAddress());
        } catch (IOException e) {
            throw new TransferException("cannot set up the " + spec.testName() + " server on "
                    + spec.family().loopbackAddress().getHostAddress() + ": " + e.getMessage(), e);
        }
        try (NativeRrServer s = server) {
            s.start();
            return flows(spec, clock, facts, RrServerSide.of(s));
        }
    }

    /**
     * Runs the native flows against a server that is serving, here or on a peer.
     *
     * @throws TransferException when a flow or the server fails or a wait overruns the timeout, as
     *     {@link RrFlows#run}; every flow's descriptor is closed first
     */
    static RrResult flows(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException {
        return RrFlows.run(spec, clock, facts, server,
                (id, address, first) -> new NativeRrFlow(id, spec, (InetSocketAddress) address, clock, first),
                // TCP_MAXSEG is read on every native connection: nothing is derived
                local -> Optional.empty());
    }

    /** Nothing to release: {@link #run()} releases every socket and thread before it returns. */
    @Override
    public void close() {
        closed = true;
    }
}
