package io.linerate.core.search;

import io.linerate.core.Clock;
import io.linerate.core.Protocol;
import io.linerate.core.Transfer;
import io.linerate.core.TransferException;
import io.linerate.core.TransferResult;
import io.linerate.core.TransferSpec;
import io.linerate.core.Transports;
import io.linerate.core.UdpStats;
import java.util.Objects;

/**
 * The trial of a rate search over a UDP stream: one transfer per trial, built from a base spec with
 * the offered rate, the search's trial length as its duration bound, its reporting interval and its
 * warm-up (left out of the measured window), opened through {@link Transports#select} (or an
 * {@link Opener} of the caller's, such as one that runs each trial against a peer agent with its
 * secret) and run. Loss is {@link UdpStats#lost()} of the measured window; the achieved rate is the
 * sender's over that window ({@link TransferResult#senderBitsPerSecond()}), 0 for an empty window.
 */
public final class UdpStreamTrial implements Trial {
    /**
     * Opens the transfer of one trial. What it needs beyond the spec (a transport, a clock, a
     * peer's shared secret) it holds itself, so none of it enters the spec, which is printed and
     * written to JSON.
     */
    @FunctionalInterface
    public interface Opener {
        /**
         * @param spec one trial's spec ({@link #specAt})
         * @return the transfer, ready to run; the trial closes it
         * @throws TransferException when the transfer cannot be set up
         */
        Transfer open(TransferSpec spec) throws TransferException;
    }

    private final TransferSpec base;
    private final SearchSpec search;
    private final Opener opener;

    /**
     * @param base the transfer to repeat: protocol UDP, family, payload, endpoint, options; its rate,
     *     bound, interval and warm-up are replaced by each trial's
     * @param search gives the trial length, interval and warm-up
     * @param transportName the transport by name, or null for the first that runs the spec
     * @param clock the time source of every transfer
     * @throws IllegalArgumentException when the base spec is not UDP
     */
    public UdpStreamTrial(TransferSpec base, SearchSpec search, String transportName, Clock clock) {
        this(base, search, opener(transportName, Objects.requireNonNull(clock, "clock")));
    }

    /**
     * @param base the transfer to repeat, as for the other constructor
     * @param search gives the trial length, interval and warm-up
     * @param opener opens each trial's transfer
     * @throws IllegalArgumentException when the base spec is not UDP
     */
    public UdpStreamTrial(TransferSpec base, SearchSpec search, Opener opener) {
        this.base = Objects.requireNonNull(base, "base");
        this.search = Objects.requireNonNull(search, "search");
        this.opener = Objects.requireNonNull(opener, "opener");
        if (base.protocol() != Protocol.UDP) {
            throw new IllegalArgumentException("a rate search over a stream needs UDP, which counts loss; got "
                    + base.protocol().label());
        }
    }

    private static Opener opener(String transportName, Clock clock) {
        return spec -> Transports.select(transportName, spec).open(spec, clock);
    }

    /** @return the spec of one trial at {@code offeredBitsPerSecond} (0: unlimited) */
    public TransferSpec specAt(long offeredBitsPerSecond) {
        return base.toBuilder()
                .rateBitsPerSecond(offeredBitsPerSecond)
                .duration(search.trial())
                .interval(search.interval())
                .warmup(search.warmup())
                .build();
    }

    /** @return the base spec's payload bytes × 8: the bits of one datagram at the rates the search offers */
    @Override
    public long messageBits() {
        return base.payloadBytes() * 8L;
    }

    @Override
    public TrialOutcome run(long offeredBitsPerSecond) throws TransferException {
        TransferSpec spec = specAt(offeredBitsPerSecond);
        TransferResult r;
        try (Transfer t = opener.open(spec)) {
            r = t.run();
        }
        UdpStats u = r.udp().orElseThrow(() -> new IllegalStateException("a UDP transfer returned no datagram counts"));
        return new TrialOutcome(offeredBitsPerSecond, r.senderBitsPerSecond().orElse(0), u.datagramsSent(),
                u.datagramsReceived(), u.lost());
    }
}
