package io.linerate.peers.agent.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.linerate.core.AppliedOptions;
import io.linerate.core.DataPath;
import io.linerate.core.Failures;
import io.linerate.core.TransferSpec;
import io.linerate.core.spi.engine.EndCounters;
import io.linerate.peers.agent.internal.wire.ParallelEnds;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A client's streams with the agent after an interrupt ({@link RemoteStreamTransfer#STOP}): the
 * agent's {@code result}, when it comes within the I/O timeout, joins this end's counts; else (an
 * agent from before the stop message, one gone) this end's counts stand alone, with the reason the
 * agent's are missing among the result's reasons, so that no figure reads its zeros as measured.
 */
final class InterruptedEnds {
    private InterruptedEnds() {}

    /**
     * @param spec the session's spec
     * @param watch the watch on the agent's control message
     * @param local this end's counts of every stream, each interrupted
     * @param localOptions the socket options this end applied, per stream
     * @param localPaths this end's system calls, per stream, where its transport reports them
     * @param clockComparison how the two hosts' clocks compare
     * @return both ends' counts of every stream when the agent's {@code result} comes within the
     *     I/O timeout, else this end's alone, whose reasons say the agent's are missing; either way
     *     marked interrupted
     */
    static RemoteParallelResult collect(TransferSpec spec, ControlWatch watch, List<EndCounters> local,
                                        List<AppliedOptions> localOptions, List<Optional<DataPath.End>> localPaths,
                                        String clockComparison) {
        long io = spec.ioTimeout().toMillis();
        int n = local.size();
        String missing = null;
        JsonNode result = null;
        try {
            result = watch.await(Math.max(1, io));
            if (!"result".equals(result.path("type").asText())) {
                missing = "the agent's counts are missing: it answered the interrupt with \""
                        + result.path("type").asText() + "\" (" + result.path("reason").asText("no reason given") + ")";
            }
        } catch (IOException e) {
            missing = "the agent's counts are missing: no result from it within the I/O timeout of " + io
                    + " ms after the interrupt (" + Failures.describe(e) + ")";
        }
        List<RemoteStreamResult> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            TransferSpec s = ParallelEnds.streamSpec(spec, i, n);
            EndCounters l = local.get(i);
            if (missing == null) {
                try {
                    JsonNode remote = AgentWord.farEnd(result, i, n);
                    // where the agent sent, its TCP_INFO at the end and per interval, as after a whole run;
                    // both ends' calls until the interrupt
                    out.add(TcpJoin.stream(s, l, localOptions.get(i), Optional.empty(), localPaths.get(i), -1, result,
                            remote, clockComparison));
                    continue;
                } catch (IOException e) {
                    missing = "the agent's counts are missing: its result did not hold them (" + e.getMessage() + ")";
                }
            }
            out.add(new RemoteStreamResult(EndsJoin.alone(s, l, localOptions.get(i),
                    missing + "; its end's figures read 0, not measured"), l,
                    EndsJoin.missingFarEnd(l), clockComparison));
        }
        return new RemoteParallelResult(out);
    }
}
