package io.linerate.nio.internal;

import io.linerate.core.AppliedOptions;
import io.linerate.core.Clock;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.latency.EchoServer;
import io.linerate.core.spi.latency.PingPongSweep;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongConsumer;

/**
 * Runs a ping-pong over NIO channels: opens the link, starts the echo server, runs core's sweep
 * ({@link PingPongSweep}) and releases all.
 */
public final class PingPongRunner {
    /** Longest wait for the echo server's thread to be pinned to its CPU, ns. */
    private static final long PIN_WAIT_NANOS = 30_000_000_000L;

    /**
     * @param serverAnswerLimit answers the echo server gives before it stops answering (for
     *     fault tests); negative for no limit
     * @see io.linerate.nio.latency.PingPong#run
     */
    public static PingPongResult run(PingPongSpec spec, Clock clock, RunFacts facts, long serverAnswerLimit)
            throws TransferException {
        return run(spec, clock, facts, serverAnswerLimit, n -> { }, null);
    }

    /**
     * As {@link #run(PingPongSpec, Clock, RunFacts, long)}, handing the echo server's own count of
     * answers to {@code serverAnswers} once it has stopped, on success only, and making a Unix
     * socket's temporary directory under {@code tempParent} (the JVM's when null). The spec's full
     * log gets one entry per completed round trip, from this thread, and is closed on every path.
     */
    public static PingPongResult run(PingPongSpec spec, Clock clock, RunFacts facts, long serverAnswerLimit,
                                     LongConsumer serverAnswers, Path tempParent) throws TransferException {
        try (Link link = Link.open(spec, tempParent)) {
            EchoServer server = new EchoServer(link.server(), spec.maxSize(), spec.timeout().toNanos(), serverAnswerLimit,
                    spec.affinity().serverCpu());
            PingPongResult result;
            try (EchoServer s = server) {
                Optional<String> serverCpus = s.startPinned(PIN_WAIT_NANOS);
                result = PingPongSweep.sweep(spec, clock, facts, link.client(), s, link.options(), new long[1], serverCpus);
                result = withMulticast(result, link);
            }
            serverAnswers.accept(server.answered());
            return result;
        }
    }

    /**
     * Runs the sweep from {@code client} against an echo end that is not in this JVM (a peer
     * agent's); closes {@code client} when the sweep ends, on every path.
     *
     * @param options the options as requested and as read back from the client's socket
     * @param roundTrips receives in its element 0 the round trips completed, also when the sweep fails
     */
    public static PingPongResult runAgainst(PingPongSpec spec, Clock clock, RunFacts facts, Endpoint client,
                                            AppliedOptions options, long[] roundTrips) throws TransferException {
        try (Endpoint c = client) {
            return PingPongSweep.sweep(spec, clock, facts, c, null, options, roundTrips, Optional.empty());
        }
    }

    private static PingPongResult withMulticast(PingPongResult r, Link link) {
        return link.multicast().isEmpty() ? r : new PingPongResult(r.spec(), r.report(), r.options(), r.sizes(),
                r.startEpochMillis(), r.fullLog(), r.interrupted(), link.multicast(), r.tcpInfo());
    }

}
