package io.linerate.nio.latency;

import io.linerate.core.Clock;
import io.linerate.core.RrSpec;
import io.linerate.core.TransferException;
import io.linerate.core.latency.RrResult;
import io.linerate.core.latency.RunFacts;
import io.linerate.nio.internal.RrRunner;

/**
 * Request/response over TCP on loopback as netperf TCP_RR / TCP_CRR and neper tcp_rr / tcp_crr
 * measure it, with the server and every flow in this JVM (one thread each). The one path of every
 * pattern, {@code Transports.select(name, spec).open(spec, clock).run()}, runs the same code with
 * the facts of this host; this entry point states given run facts.
 */
public final class RequestResponse {
    private RequestResponse() {}

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
        return RrRunner.run(spec, clock, facts);
    }
}
