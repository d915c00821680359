package io.linerate.afpacket;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of a raw transfer. A run is valid only with zero loss in the measured window on
 * every stream and no kernel ring drops (DESIGN rule 4); otherwise {@code valid} is false and
 * {@code reasons} say why. Results of a run that ended early carry the {@code error} and the
 * counts up to it.
 *
 * @param spec what was run
 * @param streams one result per ethertype, in the order of the spec
 * @param measuredNanos length of the measured window by the sender's clock, ns
 * @param senderCpuNanos CPU time of the sending thread, ns
 * @param receiverCpuNanos CPU time of the receiving thread, ns
 * @param timestamping which per-frame RX stamps the measured frames carried
 * @param steered whether Flow Director rules steered the streams
 * @param steering what happened with steering (rules installed, or why not)
 * @param rules the rules installed (all removed again before this result was returned)
 * @param txNic the TX interface's counters over the whole run (baseline before the first frame,
 *     final reading after the receiver stopped, both settled by {@link NicCounters#readSettled}),
 *     with every glitch, wrap and reset seen per counter and the counters still in doubt
 * @param rxNic the RX interface's counters over the same span, likewise
 * @param rxIntervals rate buckets formed from the per-frame RX stamps (empty when frames carried
 *     none: then only the interval samples from counters read at known times exist)
 * @param txRetries sendmmsg calls that the kernel refused with ENOBUFS/EAGAIN and that were retried
 * @param valid whether the run counts
 * @param reasons why it does not count; empty when valid
 * @param error what ended the run early, if anything
 */
public record RawResult(RawTransferSpec spec, List<RawStreamResult> streams, long measuredNanos,
                        long senderCpuNanos, long receiverCpuNanos, Timestamping timestamping,
                        boolean steered, String steering, List<FlowSteering.Installed> rules,
                        Optional<NicCounters.Delta> txNic, Optional<NicCounters.Delta> rxNic,
                        List<StampInterval> rxIntervals, long txRetries,
                        boolean valid, List<String> reasons, Optional<String> error) {

    /**
     * @return one line per interface counter that glitched, wrapped, reset or is still in doubt
     *     over the run, prefixed by the interface ({@code veth0 rx_packets: 1 glitch ...}); empty
     *     when every counter only moved forward
     */
    public List<String> counterNotes() {
        List<String> out = new ArrayList<>();
        for (Optional<NicCounters.Delta> d : List.of(txNic, rxNic)) {
            d.ifPresent(x -> x.notes().forEach(n -> out.add(x.interfaceName() + " " + n)));
        }
        return out;
    }

    /** @return frames sent in the measured window, all streams */
    public long txFrames() {
        return streams.stream().mapToLong(RawStreamResult::txFrames).sum();
    }

    /** @return distinct frames of the measured window received, all streams */
    public long rxFrames() {
        return streams.stream().mapToLong(RawStreamResult::rxFrames).sum();
    }

    /** @return frames sent, warm-up included, all streams */
    public long txFramesTotal() {
        return streams.stream().mapToLong(RawStreamResult::txFramesTotal).sum();
    }

    /** @return frames received, warm-up included, all streams */
    public long rxFramesTotal() {
        return streams.stream().mapToLong(RawStreamResult::rxFramesTotal).sum();
    }
}
