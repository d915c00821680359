package io.linerate.afpacket;

import java.util.List;
import java.util.Optional;

/**
 * What the receiving end of a raw transfer reports beside its per-stream counts.
 *
 * @param cpuNanos CPU time of the receiving thread, ns
 * @param timestamping which per-frame RX stamps the window's frames carried
 * @param steering what happened with Flow Director steering
 * @param nic the RX interface's counters over the run, as {@link RawSenderReport#nic()}
 * @param intervals rate buckets formed from the per-frame RX stamps (empty when frames carried
 *     none: then only the interval samples from counters read at known times exist)
 */
public record RawReceiverReport(long cpuNanos, Timestamping timestamping, RawSteering steering,
                                Optional<NicCounters.Delta> nic, List<StampInterval> intervals) {
    /** Copies the intervals. */
    public RawReceiverReport {
        intervals = List.copyOf(intervals);
    }
}
