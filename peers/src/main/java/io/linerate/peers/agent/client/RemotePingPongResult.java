package io.linerate.peers.agent.client;

import io.linerate.core.MeasurementResult;
import io.linerate.core.MeasurementSpec;
import io.linerate.core.Metric;
import io.linerate.core.PingPongProtocol;
import io.linerate.core.latency.PingPongResult;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;

/**
 * A ping-pong whose echo end ran in a peer agent. Every latency figure is this host's: a round
 * trip starts and ends on this host's clock, so the two clocks need no comparing. The agent's own
 * counts say whether the ends agree: the bytes it echoed equal the bytes of every round trip this
 * host completed, and, for UDP, its echoes (one per datagram) equal those round trips.
 *
 * @param local this host's sweep, as an in-JVM ping-pong reports it
 * @param agentEchoes reads the agent answered: one per datagram; for TCP one per arrival, which is
 *     one per message while each message arrives in one piece
 * @param agentEchoedBytes bytes the agent echoed
 */
public record RemotePingPongResult(PingPongResult local, long agentEchoes, long agentEchoedBytes)
        implements MeasurementResult {

    /** @return whether the local end's sweep was interrupted ({@link PingPongResult#interrupted()}) */
    @Override
    public boolean interrupted() {
        return local.interrupted();
    }

    @Override
    public MeasurementSpec spec() {
        return local.spec();
    }

    /** @return bytes this host sent in completed round trips: the sum over sizes of size · round trips */
    public long bytesSent() {
        long b = 0;
        for (PingPongResult.SizeCounts c : local.sizes()) {
            b += (long) c.sizeBytes() * c.roundTrips();
        }
        return b;
    }

    /**
     * @return the local sweep's reasons, and a mismatch of the agent's echoes with this host's round
     *     trips; of an interrupted sweep, the agent may have echoed one message more (the one in flight)
     */
    @Override
    public List<String> invalidReasons() {
        List<String> out = new ArrayList<>(local.invalidReasons());
        // an interrupt may cut the last round trip after its message left: the agent echoed it, this host did not count it
        long inFlightBytes = local.interrupted() && !local.sizes().isEmpty()
                ? local.sizes().get(local.sizes().size() - 1).sizeBytes() : 0;
        long inFlight = local.interrupted() ? 1 : 0;
        long extraBytes = agentEchoedBytes - bytesSent();
        if (extraBytes < 0 || extraBytes > inFlightBytes) {
            out.add("the agent echoed " + agentEchoedBytes + " bytes but this host's round trips carried " + bytesSent());
        }
        long extraEchoes = agentEchoes - local.roundTrips();
        if (local.spec().protocol() == PingPongProtocol.UDP && (extraEchoes < 0 || extraEchoes > inFlight)) {
            out.add("the agent echoed " + agentEchoes + " datagrams but this host completed " + local.roundTrips()
                    + " round trips");
        }
        return out;
    }

    @Override
    public List<Metric> metrics() {
        // the agent's counts can make a run invalid that this host's alone would not: no numbers then
        return invalidReasons().isEmpty() ? local.metrics() : List.of();
    }

    @Override
    public JsonObject detailJson() {
        return local.detailJson().put("remote", JsonObject.create().put("role", "echo")
                .put("echoes", agentEchoes).put("bytes", agentEchoedBytes)
                .put("clock", "not used: every round trip is timed on this host's clock"));
    }
}
