package io.linerate.afpacket;

import java.util.Optional;

/**
 * What the sending end of a raw transfer reports beside its per-stream counts.
 *
 * @param cpuNanos CPU time of the sending thread, ns
 * @param retries send attempts that found no room (sendmmsg refused with ENOBUFS/EAGAIN, or a
 *     full TX ring) and were tried again
 * @param refusals TX ring flushes the kernel refused with ENOBUFS/EAGAIN; each dropped a frame
 * @param nic the TX interface's counters over the run (baseline before the first frame, final
 *     reading after the sender stopped, both settled by {@link NicCounters#readSettled}), with
 *     every glitch, wrap and reset seen per counter; empty when they could not be read
 * @param pacing what paced the sender, with the receiver's credit where it had one
 */
public record RawSenderReport(long cpuNanos, long retries, long refusals, Optional<NicCounters.Delta> nic,
                              RawPacing pacing) {
    /** A report of a sender without credit and without a rate (pacing {@code none}). */
    public RawSenderReport(long cpuNanos, long retries, long refusals, Optional<NicCounters.Delta> nic) {
        this(cpuNanos, retries, refusals, nic, RawPacing.withoutCredit(0));
    }
}
