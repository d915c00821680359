package io.linerate.afpacket;

import java.util.Optional;

/**
 * One interval of a running raw transfer, from the library's counters read together and stamped
 * right after the read (DESIGN rule 1). Times are seconds since the transfer started.
 *
 * @param startSeconds start of the interval
 * @param endSeconds end of the interval
 * @param frameSize bytes per frame; the rates are for this size
 * @param tx frames sent in the interval and their rate; empty without a sender in the run
 * @param rx frames received in the interval and their rate; empty without a receiver in the run
 * @param omitted whether the interval lies in the warm-up (the warm-up's end is an interval boundary)
 */
public record RawInterval(double startSeconds, double endSeconds, int frameSize, Optional<RawRate> tx,
                          Optional<RawRate> rx, boolean omitted) {}
