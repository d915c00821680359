package io.linerate.core.search;

import java.util.List;

/**
 * What one trial counted over its measured window.
 *
 * @param offeredBitsPerSecond the rate asked for, bit/s of payload; 0 for as fast as possible
 * @param achievedBitsPerSecond the rate the sender reached over the window, bit/s of payload;
 *     0 when the window was empty
 * @param sent datagrams or frames sent inside the window
 * @param received how many of those arrived, each counted once
 * @param lost {@code sent − received}
 * @param validityFailures what the pattern's validity rule finds against the trial besides its
 *     loss, such as frames a raw receiver's ring dropped; empty for none. A search trial ignores
 *     them (loss is its signal); a confirm trial with any fails ({@link SearchTrial.Verdict#INVALID})
 */
public record TrialOutcome(long offeredBitsPerSecond, double achievedBitsPerSecond, long sent, long received,
                           long lost, List<String> validityFailures) {
    /**
     * An outcome with nothing against it but its loss.
     *
     * @throws IllegalArgumentException as the canonical constructor
     */
    public TrialOutcome(long offeredBitsPerSecond, double achievedBitsPerSecond, long sent, long received, long lost) {
        this(offeredBitsPerSecond, achievedBitsPerSecond, sent, received, lost, List.of());
    }

    /**
     * Copies the failures.
     *
     * @throws IllegalArgumentException for a negative or non-finite figure, or lost ≠ sent − received
     */
    public TrialOutcome {
        validityFailures = List.copyOf(validityFailures);
        if (offeredBitsPerSecond < 0 || !(achievedBitsPerSecond >= 0) || Double.isInfinite(achievedBitsPerSecond)
                || sent < 0 || received < 0 || lost < 0) {
            throw new IllegalArgumentException("trial outcome has a negative or non-finite figure: offered "
                    + offeredBitsPerSecond + " bit/s, achieved " + achievedBitsPerSecond + " bit/s, sent " + sent
                    + ", received " + received + ", lost " + lost + "; allowed: 0 or more");
        }
        if (lost != sent - received) {
            throw new IllegalArgumentException("trial outcome has lost " + lost + " but sent " + sent + " - received "
                    + received + " = " + (sent - received) + "; lost must be sent - received");
        }
    }

    /** @return lost as a percentage of sent, 0..100; 100 when nothing was sent (a trial that moved nothing passed nothing) */
    public double lossPercent() {
        return sent == 0 ? 100.0 : 100.0 * lost / sent;
    }
}
