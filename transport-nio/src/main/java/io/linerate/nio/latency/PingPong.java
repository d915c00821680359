package io.linerate.nio.latency;

import io.linerate.core.Clock;
import io.linerate.core.PingPongSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.internal.PingPongRunner;

/**
 * A ping-pong as sfnt-pingpong and sockperf's ping-pong run it, with the client and an echo server
 * in this JVM: one message at a time bounces between them; each sample is one round trip timed on
 * the client with the {@link Clock}, from before the write to after the whole answer was read.
 * Sizes run in order, each under the spec's {@link io.linerate.core.latency.IterationPolicy}. The
 * one path of every pattern, {@code Transports.select(name, spec).open(spec, clock).run()}, runs
 * the same code with the facts of this host; this entry point states given run facts.
 */
public final class PingPong {
    private PingPong() {}

    /**
     * Runs the sweep on the calling thread (the client) and one echo-server thread.
     *
     * @param spec what to measure
     * @param clock times every round trip
     * @param facts the run facts for the report
     * @return the results of every size
     * @throws TransferException when set-up fails, the protocol is unsupported (a usage error), or
     *     an operation overruns the timeout (such as a lost UDP ping or a server that stopped
     *     answering: the message says how many round trips completed); everything is released
     */
    public static PingPongResult run(PingPongSpec spec, Clock clock, RunFacts facts) throws TransferException {
        return PingPongRunner.run(spec, clock, facts, -1);
    }
}
