package io.linerate.afpacket;

import io.linerate.core.Clock;
import io.linerate.core.Measurement;
import io.linerate.core.MeasurementResult;
import io.linerate.core.RawTransferSpec;
import io.linerate.core.TransferException;
import io.linerate.core.Transports;
import io.linerate.core.search.SearchSpec;
import io.linerate.core.search.Trial;
import io.linerate.core.search.TrialOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The trial of a rate search over raw frames: one raw transfer with both ends per trial, built from
 * a base spec with the offered rate (L2 bit/s, frame bytes without FCS × 8), the search's trial
 * length as its duration, its warm-up (left out of the measured window) and its reporting interval,
 * opened through {@link Transports#select} and run. Rates here are L2 bit/s, not payload.
 *
 * <ul>
 * <li>sent: frames sent in the measured window, all streams ({@link RawResult#txFrames()});</li>
 * <li>lost: window frames sent minus distinct window frames received, per stream, summed
 *     ({@link RawStreamResult#lost()}); received is sent − lost;</li>
 * <li>achieved: the sender's rate, sent × frame size × 8 / measured window;</li>
 * <li>validity failures: the raw-frame validity rule besides loss: frames the RX ring dropped
 *     (PACKET_STATISTICS, over the run, warm-up included) and TX ring refusals. The search ignores
 *     them; a confirm trial with any fails ({@link io.linerate.core.search.SearchTrial.Verdict#INVALID}).</li>
 * </ul>
 * A run that ended early (an interface went down) is no trial: {@link #run} throws.
 */
public final class RawFrameTrial implements Trial {
    private final RawTransferSpec base;
    private final SearchSpec search;
    private final String transportName;
    private final Clock clock;

    /**
     * @param base the raw transfer to repeat, with both ends: interfaces, ethertypes, frame size,
     *     MACs, batch, options; its rate, duration, warm-up and interval are replaced by each trial's
     * @param search gives the trial length, interval and warm-up
     * @param transportName the transport by name, or null for the first that runs raw frames
     * @param clock the time source of every run
     * @throws IllegalArgumentException when the base spec lacks an end: loss needs both counts
     */
    public RawFrameTrial(RawTransferSpec base, SearchSpec search, String transportName, Clock clock) {
        this.base = Objects.requireNonNull(base, "base");
        this.search = Objects.requireNonNull(search, "search");
        this.transportName = transportName;
        this.clock = Objects.requireNonNull(clock, "clock");
        if (!base.sends() || !base.receives()) {
            throw new IllegalArgumentException("a rate search over raw frames needs both ends (a TX and an RX interface) "
                    + "to count loss; got " + (base.sends() ? "TX " + base.txInterface().get() + " only"
                    : "RX " + base.rxInterface().get() + " only"));
        }
    }

    /** @return the spec of one trial at {@code offeredBitsPerSecond} L2 bit/s (0: unlimited) */
    public RawTransferSpec specAt(long offeredBitsPerSecond) {
        return base.toBuilder().rateBitsPerSecond(offeredBitsPerSecond).duration(search.trial()).warmup(search.warmup())
                .interval(search.interval()).build();
    }

    /** @return the frame size × 8: the L2 bits of one frame, in the rates the search offers */
    @Override
    public long messageBits() {
        return base.frameSize() * 8L;
    }

    /**
     * @param offeredBitsPerSecond L2 bit/s; 0 for as fast as the sender can
     * @throws TransferException when the run cannot start, or ended early
     */
    @Override
    public TrialOutcome run(long offeredBitsPerSecond) throws TransferException {
        RawTransferSpec spec = specAt(offeredBitsPerSecond);
        MeasurementResult m;
        try (Measurement t = Transports.select(transportName, spec).open(spec, clock)) {
            m = t.run();
        }
        if (!(m instanceof RawResult r)) {
            throw new IllegalStateException("transport returned " + m.getClass().getName() + " for raw frames, not a RawResult");
        }
        return outcome(offeredBitsPerSecond, r);
    }

    /**
     * @param offeredBitsPerSecond the rate the run was offered, L2 bit/s
     * @param r a run with both ends
     * @return the trial's counts, as {@link RawFrameTrial} says
     * @throws TransferException when the run ended early
     */
    static TrialOutcome outcome(long offeredBitsPerSecond, RawResult r) throws TransferException {
        if (r.error().isPresent()) {
            throw new TransferException(String.format(Locale.ROOT, "the raw trial at %d bit/s ended early: %s",
                    offeredBitsPerSecond, r.error().get()), null);
        }
        long sent = r.txFrames().orElseThrow(() -> new IllegalStateException("a raw trial without a sender"));
        long lost = 0;
        List<String> failures = new ArrayList<>();
        for (RawStreamResult s : r.streams()) {
            lost += s.lost().orElseThrow(() -> new IllegalStateException("a raw trial without both ends"));
            long drops = s.rx().map(x -> x.ring().drops()).orElse(0L);
            if (drops > 0) {
                failures.add(String.format(Locale.ROOT, "stream %d (ethertype 0x%04x): the RX ring dropped %d frames "
                        + "(PACKET_STATISTICS)", s.streamId(), s.etherType(), drops));
            }
        }
        long refusals = r.sender().map(RawSenderReport::refusals).orElse(0L);
        if (refusals > 0) {
            failures.add("the kernel refused " + refusals + " transmissions (ENOBUFS) from the TX ring; each dropped a frame");
        }
        double achieved = r.measuredNanos() == 0 ? 0 : sent * r.spec().bitsPerFrame() * 1e9 / r.measuredNanos();
        return new TrialOutcome(offeredBitsPerSecond, achieved, sent, sent - lost, lost, failures);
    }
}
