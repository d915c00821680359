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
}
