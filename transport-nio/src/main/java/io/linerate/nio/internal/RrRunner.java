package io.linerate.nio.internal;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.core.spi.ends.RrServerSide;
import io.linerate.core.spi.latency.RrFlows;
import io.linerate.nio.PathFacts;
import java.io.IOException;

/**
 * Runs request/response over TCP on loopback as netperf TCP_RR / TCP_CRR and neper tcp_rr / tcp_crr
 * measure it, with the server and every flow in this JVM (one thread each), on core's coordinator
 * ({@link RrFlows}: the measured window, the open-loop schedule, the report).
 */
public final class RrRunner {
    private RrRunner() {}

    /**
     * Runs the test on the calling thread (the coordinator), a server thread and one thread per flow.
     *
     * @param spec what to measure
     * @param clock times the window and every transaction
     * @param facts run facts for the report
     * @return the report and the server's own counts
     * @throws TransferException when set-up fails, a flow or the server fails, or a wait overruns
     *     the timeout (the message names the flow and its completed transactions); every thread
     *     and socket is released first
     */
    public static RrResult run(RrSpec spec, Clock clock, RunFacts facts) throws TransferException {
        RrServer server;
        try {
            server = RrServer.open(spec.family(), spec.requestBytes(), spec.responseBytes(), spec.noDelay(),
                    spec.pollingIdle().map(io.linerate.core.Idle::newStrategy).orElse(null));
        } catch (IOException e) {
            throw new TransferException("cannot set up the " + spec.testName() + " server on "
                    + spec.family().loopbackAddress().getHostAddress() + ": " + e.getMessage(), e);
        }
        try (RrServer s = server) {
            s.start();
            return run(spec, clock, facts, RrServerSide.of(s));
        }
    }

    /**
     * Runs the flows against a server that is already serving, on {@link RrFlows} with NIO flows
     * ({@link RrFlow}); see {@link #run(RrSpec, Clock, RunFacts)}.
     */
    public static RrResult run(RrSpec spec, Clock clock, RunFacts facts, RrServerSide server) throws TransferException {
        return RrFlows.run(spec, clock, facts, server,
                (id, address, first) -> new RrFlow(id, spec, address, clock, first),
                local -> PathFacts.tcpMss(spec.family(), local));
    }
}
