package io.linerate.core.search;

import io.linerate.core.TransferException;

/**
 * One trial of a rate search: traffic offered at a fixed rate for the search's trial duration, its
 * warm-up left out, and what came of it.
 */
@FunctionalInterface
public interface Trial {
    /**
     * Runs one trial.
     *
     * @param offeredBitsPerSecond the rate to offer, bit/s of payload; 0 means as fast as the
     *     sender can (the trial that finds the default maximum rate)
     * @return what the trial offered, achieved, sent and lost
     * @throws TransferException when the trial could not be run (not when it lost traffic: loss is
     *     the search's signal, not a failure)
     */
    TrialOutcome run(long offeredBitsPerSecond) throws TransferException;

    /**
     * The size of one message a trial sends, in the bits its rates count: a UDP datagram's payload
     * bytes × 8, a raw frame's L2 bytes × 8. A trial counts whole messages, so its achieved rate is
     * quantised to steps of this size per trial window; {@link RateSearch} allows a shortfall of one
     * such step ({@link SearchSpec#messageShortfallBitsPerSecond(long)}) and refuses rates that carry
     * fewer than {@value SearchSpec#MIN_MESSAGES_PER_TRIAL} messages in a trial.
     *
     * @return bits per message, more than 0; 0 (the default) when unknown, for no such allowance or check
     */
    default long messageBits() {
        return 0;
    }
}
