package io.linerate.afpacket;

import io.linerate.core.Metric;
import io.linerate.core.RawEndCounts;
import io.linerate.core.RawEndsResult;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.sink.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;

/**
 * The outcome of a raw transfer. With both ends in the run, it is valid only with zero loss in
 * the measured window on every stream and no kernel ring drops (DESIGN rule 4); otherwise
 * {@code valid} is false and {@code reasons} say why. Results of a run that ended early carry the
 * {@code error} and the counts up to it.
 *
 * <p>As every pattern's result, it gives its {@linkplain #metrics() metrics} ({@link RawMetrics})
 * and its JSON ({@link RawResultJson}, the {@code "detail"} of
 * {@link io.linerate.core.sink.ResultJson#of}).
 *
 * @param spec what was run
 * @param streams one result per ethertype, in the order of the spec
 * @param measuredNanos length of the measured window by the sender's clock, ns; in a run without
 *     a sender, the time the window's frames took to arrive: the span of their RX stamps extended
 *     by one mean gap ({@code span × n / (n − 1)} for {@code n} frames, so that frames over it is
 *     their arrival rate), 0 with fewer than 2
 * @param sender what the sending end reports; empty without a sender in the run
 * @param receiver what the receiving end reports; empty without a receiver in the run
 * @param valid whether the run counts: {@code reasons} is empty
 * @param reasons why it does not count; empty when valid
 * @param error what ended the run early, if anything
 * @param interrupted whether an interrupt of the running thread (SIGINT) stopped the run before its
 *     window's end: the counts are those until then, over the window until the last send
 */
public record RawResult(RawTransferSpec spec, List<RawStreamResult> streams, long measuredNanos,
                        Optional<RawSenderReport> sender, Optional<RawReceiverReport> receiver,
                        boolean valid, List<String> reasons, Optional<String> error, boolean interrupted)
        implements RawEndsResult {
    /**
     * Copies the lists.
     *
     * @throws IllegalArgumentException when {@code valid} does not say whether {@code reasons} is empty
     */
    public RawResult {
        streams = List.copyOf(streams);
        reasons = List.copyOf(reasons);
        if (valid != reasons.isEmpty()) {
            throw new IllegalArgumentException("valid=" + valid + " with " + reasons.size()
                    + " reasons; a result is valid exactly when it has no reason against it");
        }
    }

    /** A run not interrupted. */
    public RawResult(RawTransferSpec spec, List<RawStreamResult> streams, long measuredNanos,
                     Optional<RawSenderReport> sender, Optional<RawReceiverReport> receiver,
                     boolean valid, List<String> reasons, Optional<String> error) {
        this(spec, streams, measuredNanos, sender, receiver, valid, reasons, error, false);
    }

    /** @return {@link #reasons()} */
    @Override
    public List<String> invalidReasons() {
        return reasons;
    }

    /**
     * @return {@link RawMetrics#of} this result, stamped with the measured window in seconds
     *     ({@link #measuredNanos()} / 10^9)
     */
    @Override
    public List<Metric> metrics() {
        return RawMetrics.of(this, measuredNanos / 1e9);
    }

    /** @return {@link RawResultJson#of} this result */
    @Override
    public JsonObject detailJson() {
        return RawResultJson.of(this);
    }

    /**
     * @return the sending end's counts: per stream its window and total frames (ring drops 0), its
     *     CPU time, and its interface's {@code tx_packets} when read; empty without a sender
     */
    @Override
    public Optional<RawEndCounts> senderCounts() {
        if (sender.isEmpty()) {
            return Optional.empty();
        }
        List<RawEndCounts.StreamCounts> counts = new ArrayList<>();
        for (RawStreamResult s : streams) {
            s.tx().ifPresent(t -> counts.add(new RawEndCounts.StreamCounts(s.etherType(), t.window().frames(),
                    t.window().bytes(), t.total().frames(), 0)));
        }
        return Optional.of(new RawEndCounts(true, spec.txInterface().orElseThrow(), counts, sender.get().cpuNanos(),
                nicPackets(txNic(), NicCounter.TX_PACKETS)));
    }

    /**
     * @return the receiving end's counts: per stream its distinct window frames, total frames and
     *     kernel ring drops, its CPU time, and its interface's {@code rx_packets} when read; empty
     *     without a receiver
     */
    @Override
    public Optional<RawEndCounts> receiverCounts() {
        if (receiver.isEmpty()) {
            return Optional.empty();
        }
        List<RawEndCounts.StreamCounts> counts = new ArrayList<>();
        for (RawStreamResult s : streams) {
            s.rx().ifPresent(r -> counts.add(new RawEndCounts.StreamCounts(s.etherType(), r.window().frames(),
                    r.window().bytes(), r.total().frames(), r.ring().drops())));
        }
        return Optional.of(new RawEndCounts(false, spec.rxInterface().orElseThrow(), counts, receiver.get().cpuNanos(),
                nicPackets(rxNic(), NicCounter.RX_PACKETS)));
    }

    private static OptionalLong nicPackets(Optional<NicCounters.Delta> nic, NicCounter c) {
        return nic.isPresent() ? OptionalLong.of(nic.get().get(c)) : OptionalLong.empty();
    }

    /**
     * @return why loss is not known, when only one end was in the run: loss is frames sent minus
     *     frames received, and a run with one end has only one of the two counts; empty when both
     *     ends were in the run
     */
    public Optional<String> lossUnknown() {
        if (sender.isPresent() && receiver.isPresent()) {
            return Optional.empty();
        }
        return Optional.of(sender.isPresent()
                ? "loss is unknown: this run had no receiver; compare the frames sent with the receiving end's count"
                : "loss is unknown: this run had no sender; compare the frames received with the sending end's count");
    }

    /** @return the TX interface's counters over the run, if the sender was in it and they were read */
    public Optional<NicCounters.Delta> txNic() {
        return sender.flatMap(RawSenderReport::nic);
    }

    /** @return the RX interface's counters over the run, if the receiver was in it and they were read */
    public Optional<NicCounters.Delta> rxNic() {
        return receiver.flatMap(RawReceiverReport::nic);
    }

    /**
     * @return one line per interface counter that glitched, reset, may have wrapped or is still in doubt
     *     over the run, prefixed by the interface ({@code veth0 rx_packets: 1 glitch ...}); empty
     *     when every counter only moved forward
     */
    public List<String> counterNotes() {
        List<String> out = new ArrayList<>();
        for (Optional<NicCounters.Delta> d : List.of(txNic(), rxNic())) {
            d.ifPresent(x -> x.notes().forEach(n -> out.add(x.interfaceName() + " " + n)));
        }
        return out;
    }

    /** @return frames sent in the measured window, all streams; empty without a sender */
    public OptionalLong txFrames() {
        return sum(RawStreamResult::tx, t -> t.window().frames());
    }

    /** @return distinct frames of the measured window received, all streams; empty without a receiver */
    public OptionalLong rxFrames() {
        return sum(RawStreamResult::rx, r -> r.window().frames());
    }

    /** @return frames sent, warm-up included, all streams; empty without a sender */
    public OptionalLong txFramesTotal() {
        return sum(RawStreamResult::tx, t -> t.total().frames());
    }

    /** @return frames received, warm-up included, all streams; empty without a receiver */
    public OptionalLong rxFramesTotal() {
        return sum(RawStreamResult::rx, r -> r.total().frames());
    }

    private <T> OptionalLong sum(Function<RawStreamResult, Optional<T>> side, java.util.function.ToLongFunction<T> count) {
        long n = 0;
        for (RawStreamResult s : streams) {
            Optional<T> v = side.apply(s);
            if (v.isEmpty()) {
                return OptionalLong.empty();
            }
            n += count.applyAsLong(v.get());
        }
        return OptionalLong.of(n);
    }
}
