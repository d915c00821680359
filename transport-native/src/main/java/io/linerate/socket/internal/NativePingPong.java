package io.linerate.socket.internal;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.latency.EchoServer;
import io.linerate.core.spi.latency.PingPongSweep;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * A ping-pong on native sockets with both ends in this JVM ({@link PingPongLink}): the echo server
 * and core's sweep ({@link PingPongSweep}) run on {@link NativeMessageEnd}s. {@link #run()} sets
 * up, measures and releases every socket and thread before it returns or throws, so {@link #close()}
 * has nothing left to release. The report's run facts are this host's ({@link RunFacts#detect}).
 */
public final class NativePingPong implements Measurement {
    /** Longest wait for the echo server's thread to be pinned to its CPU, ns. */
    private static final long PIN_WAIT_NANOS = 30_000_000_000L;

    private final PingPongSpec spec;
    private final Clock clock;
    private boolean ran;
    private boolean closed;

    private NativePingPong(PingPongSpec spec, Clock clock) {
        this.spec = spec;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** @return the measurement, ready to run */
    public static NativePingPong of(PingPongSpec spec, Clock clock) {
        return new NativePingPong(spec, clock);
    }

    @Override
    public MeasurementSpec spec() {
        return spec;
    }

    /** @return the {@link PingPongResult} */
    @Override
    public PingPongResult run() throws TransferException {
        if (closed || ran) {
            throw new IllegalStateException("this ping-pong measurement has " + (closed ? "been closed" : "already run")
                    + "; open another one");
        }
        ran = true;
        String v = NativePingPong.class.getPackage().getImplementationVersion();
        return run(spec, clock, RunFacts.detect(v == null ? "dev" : v, spec.toString()), -1, n -> { });
    }

    /**
     * Runs the ping-pong, releasing every socket and thread on every path.
     *
     * @param serverAnswerLimit answers the echo server gives before it stops answering (for
     *     fault tests); negative for no limit
     * @param serverAnswers receives the echo server's own count of answers once it has stopped, on success only
     * @throws TransferException as {@link PingPongLink#open} and {@link PingPongSweep#sweep}
     */
    public static PingPongResult run(PingPongSpec spec, Clock clock, RunFacts facts, long serverAnswerLimit,
                                     LongConsumer serverAnswers) throws TransferException {
        try (PingPongLink link = PingPongLink.open(spec)) {
            EchoServer server = new EchoServer(link.server, spec.maxSize(), spec.timeout().toNanos(), serverAnswerLimit,
                    spec.affinity().serverCpu());
            PingPongResult result;
            try (EchoServer s = server) {
                Optional<String> serverCpus = s.startPinned(PIN_WAIT_NANOS);
                result = PingPongSweep.sweep(spec, clock, facts, link.client, s, link.options, new long[1], serverCpus);
            }
            serverAnswers.accept(server.answered());
            return result;
        }
    }

    /** Nothing to release: {@link #run()} releases every socket and thread before it returns. */
    @Override
    public void close() {
        closed = true;
    }
}
