package io.linerate.peers.agent.client;

import io.linerate.core.IntervalSample;
import io.linerate.peers.agent.internal.wire.TcpIntervalsJson;
import java.util.ArrayList;
import java.util.List;

/**
 * Joins the far sender's per-interval {@code TCP_INFO} ({@link TcpIntervalsJson.Entry}) onto this
 * host's own interval samples of the same stream, by index within each phase: the k-th warm-up
 * interval of the far end onto the k-th warm-up interval here, the k-th window interval onto the
 * k-th window interval here.
 *
 * <p>Why by index and not by time: each end counts by its own clock from its own start, and the two
 * clocks are not compared (they may be two hosts'). What the ends share is the interval grid: both
 * run the spec's warm-up and then open their window on a tick, and tick every interval from there
 * ({@code IntervalTicks}), so the k-th interval of a phase covers the same stretch of the stream at
 * both ends, shifted by the path's delay and the start of the receiver's clock at its first bytes.
 * The phase is each interval's {@code omitted} flag. The counts of a phase may differ at its end on
 * a busy host or when a window ended early (a TCP receiver's window ends at its last data): an
 * interval here with no far counterpart keeps no figures, and a far interval with none here is
 * left over; neither fails the join.
 */
final class FarIntervalsJoin {
    private FarIntervalsJoin() {}

    /**
     * @param intervals this host's intervals with the far sender's figures where joined, in this
     *     host's order
     * @param joined how many of this host's intervals got figures
     */
    record Joined(List<IntervalSample> intervals, int joined) {}

    /**
     * @param local this host's interval samples, warm-up ones first, flagged {@code omitted}
     * @param far the far sender's, in its order
     * @return {@code local} with each interval that has a far counterpart with figures carrying
     *     them ({@link IntervalSample#withTcp}); the others unchanged
     */
    static Joined join(List<IntervalSample> local, List<TcpIntervalsJson.Entry> far) {
        List<TcpIntervalsJson.Entry> farWarmup = far.stream().filter(TcpIntervalsJson.Entry::omitted).toList();
        List<TcpIntervalsJson.Entry> farWindow = far.stream().filter(e -> !e.omitted()).toList();
        List<IntervalSample> out = new ArrayList<>(local.size());
        int warmup = 0;
        int window = 0;
        int joined = 0;
        for (IntervalSample s : local) {
            List<TcpIntervalsJson.Entry> phase = s.omitted() ? farWarmup : farWindow;
            int k = s.omitted() ? warmup++ : window++;
            if (k < phase.size() && phase.get(k).tcp().isPresent()) {
                out.add(s.withTcp(phase.get(k).tcp().get()));
                joined++;
            } else {
                out.add(s);
            }
        }
        return new Joined(out, joined);
    }
}
